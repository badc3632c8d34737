/**
 * Smart links: rows of `links` with kind 'smart' (docs/decisions/smart-links-in-links-table.md).
 * destinationUrl is the fallback, `targets` the per-platform URLs; they share the short-code
 * namespace, the redirect's lookup, the click counters and the writer (writer.ts) with links.
 * The links routes never see them, and these routes never see links.
 */
import { AppError, collectProblems } from '../../http/errors.js'
import type { PageOf } from '../../../src/contract/common.js'
import type {
  CreateSmartLinkBody,
  ListSmartLinksQuery,
  SmartLink,
  UpdateSmartLinkBody,
} from '../../../src/contract/smart-links.js'
import { presentSmart } from './present.js'
import type { LinkRecord, SmartTargets } from './records.js'
import { checkSlug, normalizeTags, normalizeTitle } from './rules.js'
import { checkVariants } from './options.js'
import type { LinkServiceDeps } from './api.js'
import { destinationsOf } from './destinations.js'
import { createLinkWriter } from './writer.js'
import type { SmartLinkService } from './api.js'

const PLATFORMS = ['ios', 'android', 'desktop'] as const
const NO_TARGETS: SmartTargets = { ios: null, android: null, desktop: null }

/** An empty game id is none. */
const gameIdOf = (g: string | null | undefined) => (g === undefined ? undefined : g?.trim() || null)

export interface SmartLinkServiceDeps extends LinkServiceDeps {
  /** Whether the organization has this game (gaming's games); absent: any game id is taken as given. */
  gameExists?(organizationId: string, gameId: string): Promise<boolean>
}

export function createSmartLinkService(deps: SmartLinkServiceDeps): SmartLinkService {
  const now = () => deps.clock.now()
  const writer = createLinkWriter(deps)
  const { destination, shortUrlOf } = writer
  const present = (l: LinkRecord) => presentSmart(l, shortUrlOf)

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
      const domain = await writer.linkDomain(organizationId, { customDomainId: body.customDomainId })
      const fallbackUrl = problems.check(() => destination(body.fallbackUrl, 'fallbackUrl'))!
      const targets = targetsOf(body, NO_TARGETS, problems)
      const wanted =
        body.shortCode === undefined
          ? undefined
          : problems.check(() => checkSlug(body.shortCode!, deps.reserved, 'shortCode'))
      const tags = problems.check(() => normalizeTags(body.tags))
      const variants = problems.check(() => checkVariants(body.variants, destination))
      problems.done()
      await writer.guard(
        organizationId,
        destinationsOf({ kind: 'smart', destinationUrl: fallbackUrl, targets, variants }),
      )
      const gameId = (await checkGame(organizationId, body.gameId)) ?? null
      const record = writer.newRecord({
        organizationId,
        ...domain,
        kind: 'smart',
        destinationUrl: fallbackUrl,
        title: normalizeTitle(body.title) ?? null,
        tags: tags ?? [],
        forwardQuery: false,
        targets,
        appendClickId: body.appendClickId ?? true,
        gameId,
        variants: variants ?? [],
        createdAt: t,
      })
      return present(await writer.insertOne(record, wanted, 'shortCode', t))
    },

    async list(organizationId: string, q: ListSmartLinksQuery): Promise<PageOf<SmartLink>> {
      return writer.list(organizationId, 'smart', q, now(), present)
    },

    async get(organizationId: string, id: string): Promise<SmartLink> {
      return present(await writer.load(organizationId, id, 'smart'))
    },

    async update(organizationId: string, id: string, body: UpdateSmartLinkBody): Promise<SmartLink> {
      const l = await writer.load(organizationId, id, 'smart')
      const t = now()
      const problems = collectProblems()
      const fallbackUrl =
        body.fallbackUrl === undefined
          ? undefined
          : problems.check(() => destination(body.fallbackUrl!, 'fallbackUrl'))
      const changesTargets = PLATFORMS.some((p) => body[p] !== undefined)
      const targets = changesTargets ? targetsOf(body, l.targets ?? NO_TARGETS, problems) : undefined
      const title = normalizeTitle(body.title)
      const tags = problems.check(() => normalizeTags(body.tags))
      const variants = problems.check(() => checkVariants(body.variants, destination))
      if (body.shortCode !== undefined)
        problems.check(() => checkSlug(body.shortCode!, deps.reserved, 'shortCode'))
      problems.done()
      // The destinations this PATCH names (targets it leaves alone are not checked again).
      const named =
        targets && Object.fromEntries(PLATFORMS.filter((p) => body[p]).map((p) => [p, targets[p]]))
      await writer.guard(
        organizationId,
        destinationsOf({ kind: 'smart', destinationUrl: fallbackUrl, targets: named, variants }),
      )
      const gameId = await checkGame(organizationId, body.gameId)
      const patch = {
        ...(fallbackUrl !== undefined && { destinationUrl: fallbackUrl }),
        ...(targets !== undefined && { targets }),
        ...(title !== undefined && { title }),
        ...(tags !== undefined && { tags }),
        ...(body.appendClickId !== undefined && { appendClickId: body.appendClickId }),
        ...(gameId !== undefined && { gameId }),
        ...(variants !== undefined && { variants }),
      }
      return present(await writer.update(organizationId, l, body, patch, t))
    },

    async delete(organizationId: string, id: string): Promise<void> {
      const l = await writer.load(organizationId, id, 'smart')
      await writer.remove(l, now())
    },
  }
}
