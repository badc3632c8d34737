/**
 * Smart links: rows of `links` with kind 'smart' (docs/decisions/smart-links-in-links-table.md).
 * destinationUrl is the fallback, `targets` the per-platform URLs; they share the short-code
 * namespace, the redirect's lookup and the click counters with links. The links routes never
 * see them, and these routes never see links.
 */
import { iso } from '../../clock.js'
import { newId } from '../../crypto.js'
import { AppError, collectProblems, notFound } from '../../http/errors.js'
import { pageOf, pageParams } from '../../http/pagination.js'
import { isUniqueViolation } from '../../db/errors.js'
import type { PageOf } from '../../../src/contract/common.js'
import type {
  CreateSmartLinkBody,
  ListSmartLinksQuery,
  SmartLink,
  UpdateSmartLinkBody,
} from '../../../src/contract/smart-links.js'
import type { SmartLinkEventData } from '../../events.js'
import { assignCodes } from './codes.js'
import { codeTaken, createLinkPlacement } from './placement.js'
import { checkSlug, normalizeTags, normalizeTitle } from './rules.js'
import type { LinkRecord, SmartTargets } from './store.js'
import type { LinkServiceDeps } from './service.js'
import type { SmartLinkService } from './index.js'

const PLATFORMS = ['ios', 'android', 'desktop'] as const

/** A smart link as the API shows it. */
export function presentSmart(l: LinkRecord, shortUrlOf: (l: LinkRecord) => string): SmartLink {
  const targets = l.targets ?? { ios: null, android: null, desktop: null }
  return {
    id: l.id,
    shortUrl: shortUrlOf(l),
    shortCode: l.shortCode,
    customDomainId: l.customDomainId,
    title: l.title,
    tags: l.tags,
    fallbackUrl: l.destinationUrl,
    ios: targets.ios,
    android: targets.android,
    desktop: targets.desktop,
    appendClickId: l.appendClickId,
    gameId: l.gameId,
    clicks: l.clicks,
    createdAt: iso(l.createdAt),
    updatedAt: iso(l.updatedAt),
  }
}

/** What link.created / link.updated carry for a smart link. */
export const smartEventData = (l: LinkRecord, shortUrlOf: (l: LinkRecord) => string): SmartLinkEventData => ({
  ...presentSmart(l, shortUrlOf),
  kind: 'smart',
})

/** An empty game id is none. */
const gameIdOf = (g: string | null | undefined) => (g === undefined ? undefined : g?.trim() || null)

export interface SmartLinkServiceDeps extends LinkServiceDeps {
  /** Whether the organization has this game (gaming's games); absent: any game id is taken as given. */
  gameExists?(organizationId: string, gameId: string): Promise<boolean>
}

export function createSmartLinkService(deps: SmartLinkServiceDeps): SmartLinkService {
  const { store } = deps
  const now = () => deps.clock.now()
  const { destination, linkDomain, shortUrlOf, newPlace, writePatch } = createLinkPlacement(deps)
  const present = (l: LinkRecord) => presentSmart(l, shortUrlOf)

  async function load(organizationId: string, id: string): Promise<LinkRecord> {
    const l = await store.byId(organizationId, id)
    if (!l || l.kind !== 'smart') throw notFound(`smart link ${id}`)
    return l
  }

  /** The game id of a body, checked to be one of the organization's games (422 otherwise). */
  async function checkGame(organizationId: string, gameId: string | null | undefined) {
    const id = gameIdOf(gameId)
    if (id && deps.gameExists && !(await deps.gameExists(organizationId, id)))
      throw new AppError('Unprocessable', `game ${id} not found in this organization`, [
        { field: 'gameId', message: 'not a game of this organization' },
      ])
    return id
  }

  /** The body's targets checked as destinations (each bad one recorded); absent ones taken from `base`. */
  function targetsOf(
    body: Partial<Record<(typeof PLATFORMS)[number], { url: string } | null>>,
    base: SmartTargets,
    problems: ReturnType<typeof collectProblems>,
  ) {
    const out: SmartTargets = { ...base }
    for (const p of PLATFORMS) {
      const v = body[p]
      if (v === undefined) continue
      const url = v === null ? null : problems.check(() => destination(v.url, `${p}.url`))
      out[p] = url === null || url === undefined ? null : { url }
    }
    return out
  }

  return {
    async create(organizationId: string, body: CreateSmartLinkBody): Promise<SmartLink> {
      const t = now()
      const problems = collectProblems()
      const domain = await linkDomain(organizationId, { customDomainId: body.customDomainId })
      const fallbackUrl = problems.check(() => destination(body.fallbackUrl, 'fallbackUrl'))!
      const targets = targetsOf(body, { ios: null, android: null, desktop: null }, problems)
      const wanted =
        body.shortCode === undefined
          ? undefined
          : problems.check(() => checkSlug(body.shortCode!, deps.reserved, 'shortCode'))
      const tags = problems.check(() => normalizeTags(body.tags))
      problems.done()
      const gameId = (await checkGame(organizationId, body.gameId)) ?? null
      const record: LinkRecord = {
        id: newId('sml'),
        organizationId,
        ...domain,
        shortCode: '',
        destinationUrl: fallbackUrl,
        title: normalizeTitle(body.title) ?? null,
        status: 'active',
        redirectType: 302,
        tags: tags ?? [],
        metadata: {},
        expiresAt: null,
        clicks: 0,
        qrCreatedAt: null,
        createdAt: t,
        updatedAt: t,
        expiredUrl: null,
        maxClicks: null,
        startsAt: null,
        forwardQuery: false,
        rules: [],
        cappedClicks: 0,
        passwordHash: null,
        og: null,
        kind: 'smart',
        targets,
        appendClickId: body.appendClickId ?? true,
        gameId,
      }
      try {
        await store.transaction(async (tx) => {
          if (wanted !== undefined) {
            if ((await tx.takenCodes(domain.domainKey, [wanted])).size) throw codeTaken(wanted)
            record.shortCode = wanted
          } else {
            const code = (
              await assignCodes(
                (list) => tx.takenCodes(domain.domainKey, list),
                [{ index: 0, customSlug: undefined }],
                deps.reserved,
              )
            ).get(0)
            if (typeof code !== 'string') throw code ?? new AppError('InternalError', 'no short code')
            record.shortCode = code
          }
          await tx.insert([record])
        })
      } catch (err) {
        // Another writer took the code between the check and the insert.
        if (isUniqueViolation(err)) throw codeTaken(record.shortCode)
        throw err
      }
      deps.events.emit('link.created', { organizationId, data: smartEventData(record, shortUrlOf) }, t)
      return present(record)
    },

    async list(organizationId: string, q: ListSmartLinksQuery): Promise<PageOf<SmartLink>> {
      const p = pageParams(q)
      const t = now()
      const search = q.search?.trim()
      const tag = q.tag?.trim()
      const { rows, total } = await store.list(organizationId, {
        kind: 'smart',
        search: search || undefined,
        tag: tag || undefined,
        sortBy: 'createdAt',
        sortOrder: 'desc',
        now: t,
        limit: p.perPage,
        offset: p.offset,
      })
      return pageOf(rows.map(present), total, p)
    },

    async get(organizationId: string, id: string): Promise<SmartLink> {
      return present(await load(organizationId, id))
    },

    async update(organizationId: string, id: string, body: UpdateSmartLinkBody): Promise<SmartLink> {
      const l = await load(organizationId, id)
      const t = now()
      const problems = collectProblems()
      const fallbackUrl =
        body.fallbackUrl === undefined
          ? undefined
          : problems.check(() => destination(body.fallbackUrl!, 'fallbackUrl'))
      const changesTargets = PLATFORMS.some((p) => body[p] !== undefined)
      const targets = changesTargets
        ? targetsOf(body, l.targets ?? { ios: null, android: null, desktop: null }, problems)
        : undefined
      const title = normalizeTitle(body.title)
      const tags = problems.check(() => normalizeTags(body.tags))
      if (body.shortCode !== undefined)
        problems.check(() => checkSlug(body.shortCode!, deps.reserved, 'shortCode'))
      problems.done()
      const gameId = await checkGame(organizationId, body.gameId)
      const place = await newPlace(organizationId, l, body)
      const patch = {
        ...(fallbackUrl !== undefined && { destinationUrl: fallbackUrl }),
        ...(targets !== undefined && { targets }),
        ...(title !== undefined && { title }),
        ...(tags !== undefined && { tags }),
        ...(body.appendClickId !== undefined && { appendClickId: body.appendClickId }),
        ...(gameId !== undefined && { gameId }),
        ...(place !== undefined && { place }),
        updatedAt: t,
      }
      await writePatch(l.id, patch)
      const updated = await load(organizationId, id)
      deps.events.emit('link.updated', { organizationId, data: smartEventData(updated, shortUrlOf) }, t)
      return present(updated)
    },

    async delete(organizationId: string, id: string): Promise<void> {
      const l = await load(organizationId, id)
      const t = now()
      await store.delete(l.id)
      deps.events.emit(
        'link.deleted',
        {
          organizationId,
          data: {
            id: l.id,
            shortUrl: shortUrlOf(l),
            shortCode: l.shortCode,
            deletedAt: iso(t),
            kind: 'smart',
          },
        },
        t,
      )
    },
  }
}
