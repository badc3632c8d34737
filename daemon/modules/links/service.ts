import type { Clock } from '../../clock.js'
import { iso, isoOrNull } from '../../clock.js'
import type { EventBus } from '../../events.js'
import { newId } from '../../crypto.js'
import { AppError, collectProblems, notFound, validationError, type ErrorDetail } from '../../http/errors.js'
import { pageOf, pageParams } from '../../http/pagination.js'
import type { PageOf } from '../../../src/contract/common.js'
import type {
  BulkCreateResult,
  CreateLinkBody,
  Link,
  LinkOg,
  LinkRule,
  ListLinksQuery,
  QrQuery,
  UpdateLinkBody,
} from '../../../src/contract/links.js'
import { QR_LIMITS, QR_MARKER, type LinkStatus } from '../../../src/contract/limits.js'
import {
  checkMetadata,
  checkSlug,
  effectiveStatus,
  normalizeTags,
  normalizeTitle,
  SHARED_DOMAIN_KEY,
  type ReservedCodes,
} from './rules.js'
import { createLinkPlacement } from './placement.js'
import { checkOg, checkRules, parseStartsAt } from './options.js'
import { hashPassword } from '../../password.js'
import { parseExpiry } from '../../http/expiry.js'
import { DEFAULT_QR_STYLE, renderQrCode, type QrImage } from '../../qr/index.js'
import { assignCodes } from './codes.js'
import type { LinkKind, LinkRecord, LinkStore, SmartTargets } from './store.js'
import { smartEventData } from './smart.js'
import type { UnitOfWork } from '../../db/unit-of-work.js'
import { isUniqueViolation } from '../../db/errors.js'
import type { DomainDirectory } from '../domains/index.js'
import type { LinkRef, LinkService } from './index.js'

type RedirectType = Link['redirectType']

/** What the redirect needs of a link (the redirect module's resolver and hot-link cache). */
export interface ResolvedLink {
  id: string
  organizationId: string
  shortCode: string
  shortUrl: string
  destinationUrl: string
  redirectType: RedirectType
  /** Effective status: expiry applied with clock.now() at resolve time. */
  status: LinkStatus
  expiresAt: number | null
  /** Where an expired link redirects instead of answering 410; null: 410. */
  expiredUrl: string | null
  /** Human clicks after which the link is expired; the redirect takes each one atomically. */
  maxClicks: number | null
  /** Before it, the short URL answers 404. */
  startsAt: number | null
  forwardQuery: boolean
  rules: LinkRule[]
  title: string | null
  /** scrypt hash of the password; a visit gets the password form first. Null: none. */
  passwordHash: string | null
  /** Open Graph tags for link-preview crawlers; null: crawlers get the redirect. */
  og: LinkOg | null
  /** A smart link's targets (destinationUrl is its fallback); null for a plain link. */
  smart: (SmartTargets & { appendClickId: boolean }) | null
}

export interface ClickDelta {
  linkId: string
  clicks: number
}

/** Links expired per transaction by the expire-links job. */
const EXPIRE_BATCH = 1000

/** A create body that passed every rule, waiting for its short code. */
interface Draft {
  domainKey: string
  customDomainId: string | null
  customSlug: string | undefined
  destinationUrl: string
  title: string | null
  redirectType: number
  tags: string[]
  metadata: Record<string, unknown>
  expiresAt: number | null
  expiredUrl: string | null
  maxClicks: number | null
  startsAt: number | null
  forwardQuery: boolean
  rules: LinkRule[]
  passwordHash: string | null
  og: LinkOg | null
}

export interface LinkServiceDeps {
  store: LinkStore
  clock: Clock
  events: EventBus
  /** config.publicUrl without a trailing slash: shared-domain short URLs are `${publicUrl}/${code}`. */
  publicUrl: string
  /**
   * The service's own hosts besides custom domains (`host` or `host:port`): the shared short
   * domain and the public URL's host. Links never point at them. Default: the public URL's host.
   */
  ownHosts?: string[]
  /** Custom domains (absent: only the shared short domain exists). */
  domains?: Pick<DomainDirectory, 'forLink' | 'hostOf' | 'knowsHost'>
  /** The daemon's own first path segments: never short codes. */
  reserved: ReservedCodes
  /** What else uses a short URL (absent: nothing but the link's own QR image). */
  shortUrlUse?: ShortUrlUse
}

/**
 * What reaches a link's short URL besides the link itself, asked before a PATCH changes it: the
 * qr-codes and clicks modules, through the composition (they depend on links, not the reverse).
 */
export interface ShortUrlUse {
  /** A link's or smart link's QR codes: how many, and the newest few. */
  qrCodes(
    organizationId: string,
    link: { id: string; kind: LinkKind },
  ): Promise<{ total: number; first: { id: string; title: string | null }[] }>
  /** The link's human clicks from `since` on. */
  clicksSince(linkId: string, since: number): Promise<number>
}

/** Validates one bulk item against CreateLinkBody; returns its problems, or nothing when valid. */
export type ItemValidator = (item: unknown) => ErrorDetail[] | undefined

export function createLinkService(deps: LinkServiceDeps): LinkService {
  const { store } = deps
  const now = () => deps.clock.now()
  const { destination, linkDomain, shortUrlOf, newPlace, writePatch } = createLinkPlacement(deps)

  /** Past its expiry, or every click of its maxClicks taken: expired. */
  function statusOf(l: LinkRecord, t: number): LinkStatus {
    const s = effectiveStatus(l, t)
    return s === 'active' && l.maxClicks !== null && l.cappedClicks >= l.maxClicks ? 'expired' : s
  }

  function present(l: LinkRecord, t: number): Link {
    return {
      id: l.id,
      shortUrl: shortUrlOf(l),
      shortCode: l.shortCode,
      destinationUrl: l.destinationUrl,
      title: l.title,
      status: statusOf(l, t),
      clicks: l.clicks,
      createdAt: iso(l.createdAt),
      updatedAt: iso(l.updatedAt),
      tags: l.tags,
      metadata: l.metadata,
      expiresAt: isoOrNull(l.expiresAt),
      customDomainId: l.customDomainId,
      redirectType: l.redirectType as RedirectType,
      expiredUrl: l.expiredUrl,
      maxClicks: l.maxClicks,
      startsAt: isoOrNull(l.startsAt),
      forwardQuery: l.forwardQuery,
      rules: l.rules,
      passwordProtected: l.passwordHash !== null,
      og: l.og,
    }
  }

  async function load(organizationId: string, id: string): Promise<LinkRecord> {
    const l = await store.byId(organizationId, id)
    // A smart link is not a link here (its own resource answers for it).
    if (!l || l.kind !== 'link') throw notFound(`link ${id}`)
    return l
  }

  /**
   * Every rule of a create body except short-code uniqueness (checked when committing); one 400
   * names every field that breaks one.
   */
  async function draft(organizationId: string, body: CreateLinkBody, t: number): Promise<Draft> {
    const p = collectProblems()
    const domain = await p.checkAsync(() => linkDomain(organizationId, body))
    const customSlug =
      body.customSlug === undefined ? undefined : p.check(() => checkSlug(body.customSlug!, deps.reserved))
    const destinationUrl = p.check(() => destination(body.destinationUrl))
    const tags = p.check(() => normalizeTags(body.tags))
    const metadata = p.check(() => checkMetadata(body.metadata))
    const expiresAt = p.check(() => parseExpiry(body.expiresAt, t))
    const expiredUrl = body.expiredUrl ? p.check(() => destination(body.expiredUrl!, 'expiredUrl')) : null
    const startsAt = p.check(() => parseStartsAt(body.startsAt))
    const rules = p.check(() => checkRules(body.rules, destination))
    const og = p.check(() => checkOg(body.og))
    p.done()
    return {
      ...domain!,
      customSlug,
      destinationUrl: destinationUrl!,
      title: normalizeTitle(body.title) ?? null,
      redirectType: body.redirectType ?? 302,
      tags: tags ?? [],
      metadata: metadata ?? {},
      expiresAt: expiresAt ?? null,
      expiredUrl: expiredUrl ?? null,
      maxClicks: body.maxClicks ?? null,
      startsAt: startsAt ?? null,
      forwardQuery: body.forwardQuery ?? true,
      rules: rules ?? [],
      // Hashed once the body is known to be good (scrypt is slow on purpose).
      passwordHash: body.password === undefined ? null : await hashPassword(body.password),
      og: og ?? null,
    }
  }

  /**
   * Gives each draft its short code and inserts the ones that got one, in one transaction.
   * A custom slug taken on its domain (already, or earlier in the batch) fails that item with 409.
   */
  async function commit(
    organizationId: string,
    drafts: Array<{ index: number; draft: Draft }>,
    t: number,
  ): Promise<Map<number, LinkRecord | AppError>> {
    const out = new Map<number, LinkRecord | AppError>()
    try {
      await store.transaction(async (tx) => {
        const byDomain = new Map<string, Array<{ index: number; draft: Draft }>>()
        for (const d of drafts)
          byDomain.set(d.draft.domainKey, [...(byDomain.get(d.draft.domainKey) ?? []), d])
        const records: LinkRecord[] = []
        for (const [domainKey, items] of byDomain) {
          const codes = await assignCodes(
            (list) => tx.takenCodes(domainKey, list),
            items.map((i) => ({ index: i.index, customSlug: i.draft.customSlug })),
            deps.reserved,
          )
          for (const { index, draft: d } of items) {
            const code = codes.get(index)
            if (code instanceof AppError || code === undefined) {
              out.set(index, code ?? new AppError('InternalError', 'no short code'))
              continue
            }
            const record: LinkRecord = {
              id: newId('lnk'),
              organizationId,
              domainKey: d.domainKey,
              customDomainId: d.customDomainId,
              shortCode: code,
              destinationUrl: d.destinationUrl,
              title: d.title,
              status: 'active',
              redirectType: d.redirectType,
              tags: d.tags,
              metadata: d.metadata,
              expiresAt: d.expiresAt,
              clicks: 0,
              qrCreatedAt: null,
              createdAt: t,
              updatedAt: t,
              expiredUrl: d.expiredUrl,
              maxClicks: d.maxClicks,
              startsAt: d.startsAt,
              forwardQuery: d.forwardQuery,
              rules: d.rules,
              cappedClicks: 0,
              passwordHash: d.passwordHash,
              og: d.og,
              kind: 'link',
              targets: null,
              appendClickId: true,
              gameId: null,
            }
            records.push(record)
            out.set(index, record)
          }
        }
        await tx.insert(records)
      })
    } catch (err) {
      // Only another writer racing for the same code gets here (one process holds the connection).
      if (isUniqueViolation(err))
        throw new AppError('Conflict', 'a short code was taken concurrently; retry the request')
      throw err
    }
    return out
  }

  function announceCreated(records: LinkRecord[], t: number): void {
    for (const r of records)
      deps.events.emit('link.created', { organizationId: r.organizationId, data: present(r, t) }, t)
  }

  return {
    async create(organizationId: string, body: CreateLinkBody): Promise<Link> {
      const t = now()
      const d = await draft(organizationId, body, t)
      const result = (await commit(organizationId, [{ index: 0, draft: d }], t)).get(0)
      if (!result) throw new AppError('InternalError', 'link was not created')
      if (result instanceof AppError) throw result
      announceCreated([result], t)
      return present(result, t)
    },

    /**
     * Up to 1,000 create bodies: each validated on its own (`validate` checks the CreateLinkBody
     * schema), the valid ones committed together in one transaction, one result per item.
     */
    async bulkCreate(
      organizationId: string,
      items: unknown[],
      validate: ItemValidator,
    ): Promise<BulkCreateResult> {
      const t = now()
      const failures = new Map<number, AppError>()
      const drafts: Array<{ index: number; draft: Draft }> = []
      for (const [index, item] of items.entries()) {
        const problems = validate(item)
        if (problems?.length) {
          failures.set(index, validationError(problems))
          continue
        }
        try {
          drafts.push({ index, draft: await draft(organizationId, item as CreateLinkBody, t) })
        } catch (err) {
          if (!(err instanceof AppError)) throw err
          failures.set(index, err)
        }
      }
      const committed = drafts.length ? await commit(organizationId, drafts, t) : new Map()
      const created: LinkRecord[] = []
      const results: BulkCreateResult['results'] = items.map((_, index) => {
        const r = failures.get(index) ?? committed.get(index)
        if (r instanceof AppError || r === undefined) {
          const e = r ?? new AppError('InternalError', 'not processed')
          return {
            index,
            status: 'failed' as const,
            error: { error: e.type, message: e.message, ...(e.details ? { details: e.details } : {}) },
          }
        }
        created.push(r)
        return { index, status: 'created' as const, link: present(r, t) }
      })
      announceCreated(created, t)
      return { created: created.length, failed: items.length - created.length, results }
    },

    async list(organizationId: string, q: ListLinksQuery): Promise<PageOf<Link>> {
      const p = pageParams(q)
      const t = now()
      const search = q.search?.trim()
      const tag = q.tag?.trim()
      const { rows, total } = await store.list(organizationId, {
        kind: 'link',
        status: q.status,
        search: search || undefined,
        tag: tag || undefined,
        sortBy: q.sortBy ?? 'createdAt',
        sortOrder: q.sortOrder ?? 'desc',
        now: t,
        limit: p.perPage,
        offset: p.offset,
      })
      return pageOf(
        rows.map((r) => present(r, t)),
        total,
        p,
      )
    },

    async get(organizationId: string, id: string): Promise<Link> {
      return present(await load(organizationId, id), now())
    },

    async update(organizationId: string, id: string, body: UpdateLinkBody): Promise<Link> {
      const l = await load(organizationId, id)
      const t = now()
      const p = collectProblems()
      const expiresAt = p.check(() => parseExpiry(body.expiresAt, t))
      const title = normalizeTitle(body.title)
      const tags = p.check(() => normalizeTags(body.tags))
      const metadata = p.check(() => checkMetadata(body.metadata))
      const destinationUrl =
        body.destinationUrl === undefined ? undefined : p.check(() => destination(body.destinationUrl!))
      const expiredUrl =
        body.expiredUrl === undefined || body.expiredUrl === null
          ? body.expiredUrl
          : p.check(() => destination(body.expiredUrl!, 'expiredUrl'))
      const rules = p.check(() => checkRules(body.rules, destination))
      const startsAt = p.check(() => parseStartsAt(body.startsAt))
      const og = p.check(() => checkOg(body.og))
      if (body.shortCode !== undefined) p.check(() => checkSlug(body.shortCode!, deps.reserved, 'shortCode'))
      p.done()
      let status: LinkStatus | undefined = body.status
      if (effectiveStatus(l, t) === 'expired') {
        // A new expiry in the future, or none, brings an expired link back (active unless told).
        if (expiresAt !== undefined) status = body.status ?? 'active'
        else if (body.status !== undefined)
          throw new AppError(
            'Unprocessable',
            `link ${id} expired at ${isoOrNull(l.expiresAt) ?? 'an earlier time'}; set a future expiresAt (or null) to reactivate it`,
          )
      }
      // A first maxClicks counts the human clicks the link already has.
      const cappedClicks =
        l.maxClicks === null && body.maxClicks !== undefined && body.maxClicks !== null ? l.clicks : undefined
      const passwordHash =
        body.password === undefined || body.password === null
          ? body.password
          : await hashPassword(body.password)
      const place = await newPlace(organizationId, l, body)
      const patch = {
        ...(destinationUrl !== undefined && { destinationUrl }),
        ...(title !== undefined && { title }),
        ...(status !== undefined && { status }),
        ...(body.redirectType !== undefined && { redirectType: body.redirectType }),
        ...(tags !== undefined && { tags }),
        ...(metadata !== undefined && { metadata }),
        ...(expiresAt !== undefined && { expiresAt }),
        ...(expiredUrl !== undefined && { expiredUrl }),
        ...(body.maxClicks !== undefined && { maxClicks: body.maxClicks }),
        ...(cappedClicks !== undefined && { cappedClicks }),
        ...(startsAt !== undefined && { startsAt }),
        ...(body.forwardQuery !== undefined && { forwardQuery: body.forwardQuery }),
        ...(rules !== undefined && { rules }),
        ...(passwordHash !== undefined && { passwordHash }),
        ...(og !== undefined && { og }),
        ...(place !== undefined && { place }),
        updatedAt: t,
      }
      await writePatch(l.id, patch)
      const link = present(await load(organizationId, id), t)
      deps.events.emit('link.updated', { organizationId, data: link }, t)
      return link
    },

    async delete(organizationId: string, id: string): Promise<void> {
      const l = await load(organizationId, id)
      const t = now()
      await store.delete(l.id)
      deps.events.emit(
        'link.deleted',
        {
          organizationId,
          data: { id: l.id, shortUrl: shortUrlOf(l), shortCode: l.shortCode, deletedAt: iso(t) },
        },
        t,
      )
    },

    /** The QR image of `${shortUrl}?qr=1`; the first one generated for a link is announced. */
    async qr(organizationId: string, id: string, q: QrQuery): Promise<QrImage> {
      const l = await load(organizationId, id)
      const format = q.format ?? 'svg'
      const shortUrl = shortUrlOf(l)
      const image = await renderQrCode(
        `${shortUrl}?${QR_MARKER}=1`,
        DEFAULT_QR_STYLE,
        format,
        q.size ?? QR_LIMITS.sizeDefault,
      )
      const t = now()
      if (l.qrCreatedAt === null && (await store.markQrCreated(l.id, t)))
        deps.events.emit(
          'qr_code.created',
          {
            organizationId,
            data: { qrCodeId: qrCodeIdOf(l.id), linkId: l.id, shortUrl, format, createdAt: iso(t) },
          },
          t,
        )
      return image
    },

    /** For the redirect: the link behind a code on a domain, with its effective status. */
    async resolve(domainKey: string, shortCode: string): Promise<ResolvedLink | undefined> {
      const l = await store.byCode(domainKey, shortCode)
      if (!l) return undefined
      return {
        id: l.id,
        organizationId: l.organizationId,
        shortCode: l.shortCode,
        shortUrl: shortUrlOf(l),
        destinationUrl: l.destinationUrl,
        redirectType: l.redirectType as RedirectType,
        status: effectiveStatus(l, now()),
        expiresAt: l.expiresAt,
        expiredUrl: l.expiredUrl,
        maxClicks: l.maxClicks,
        startsAt: l.startsAt,
        forwardQuery: l.forwardQuery,
        rules: l.rules,
        title: l.title,
        passwordHash: l.passwordHash,
        og: l.og,
        smart: l.kind === 'smart' && l.targets ? { ...l.targets, appendClickId: l.appendClickId } : null,
      }
    },

    /** Any link or smart link of the organization (analytics read both by id); 404 otherwise. */
    async owned(
      organizationId: string,
      id: string,
    ): Promise<{ id: string; kind: LinkKind; shortUrl: string }> {
      const l = await store.byId(organizationId, id)
      if (!l) throw notFound(`link ${id}`)
      return { id: l.id, kind: l.kind, shortUrl: shortUrlOf(l) }
    },

    async refs(organizationId: string, ids: readonly string[]): Promise<Map<string, LinkRef>> {
      const out = new Map<string, LinkRef>()
      for (const id of new Set(ids)) {
        const l = await store.byId(organizationId, id)
        if (l) out.set(l.id, { shortUrl: shortUrlOf(l), destinationUrl: l.destinationUrl })
      }
      return out
    },

    /** A redirect of a link with maxClicks: see LinkQueries.takeCappedClick. */
    takeCappedClick(id: string, human: boolean): Promise<boolean> {
      return store.takeCappedClick(id, human)
    },

    /**
     * Adds human clicks to links.clicks: one UPDATE per link, inside the caller's unit of work
     * when `unit` is given, else on the database. Links deleted meanwhile are skipped.
     */
    async addClicks(deltas: ReadonlyArray<ClickDelta>, unit?: UnitOfWork): Promise<void> {
      await store.addClicks(deltas, unit)
    },

    /** Which of `ids` are links that still exist (any organization): the clicks purge asks. */
    existingIds(ids: readonly string[]): Promise<Set<string>> {
      return store.existingIds(ids)
    },

    /** Clicks of the organization's links on custom domains (the domains stats read them here). */
    customDomainClicks(organizationId: string): Promise<number> {
      return store.customDomainClicks(organizationId)
    },

    /**
     * A custom domain is being deleted: its links fall back to the shared short domain. A link
     * whose code is already taken there gets a new generated code. Returns how many.
     */
    async detachDomain(domainId: string): Promise<number> {
      const t = now()
      const moved = await store.transaction(async (tx) => {
        const links = await tx.onDomain(domainId)
        if (!links.length) return []
        const clash = await tx.takenCodes(
          SHARED_DOMAIN_KEY,
          links.map((l) => l.shortCode),
        )
        const renamed = await assignCodes(
          (list) => tx.takenCodes(SHARED_DOMAIN_KEY, list),
          links.filter((l) => clash.has(l.shortCode)).map((l, index) => ({ index, customSlug: undefined })),
          deps.reserved,
        )
        const newCodes = [...renamed.values()]
        let i = 0
        const out: LinkRecord[] = []
        for (const l of links) {
          let code = l.shortCode
          if (clash.has(l.shortCode)) {
            const c = newCodes[i++]
            if (typeof c !== 'string') throw new AppError('InternalError', 'no free short code')
            code = c
          }
          await tx.moveToDomain(l.id, SHARED_DOMAIN_KEY, null, code, t)
          out.push({
            ...l,
            domainKey: SHARED_DOMAIN_KEY,
            customDomainId: null,
            shortCode: code,
            updatedAt: t,
          })
        }
        return out
      })
      for (const l of moved)
        deps.events.emit(
          'link.updated',
          {
            organizationId: l.organizationId,
            data: l.kind === 'smart' ? smartEventData(l, shortUrlOf) : present(l, t),
          },
          t,
        )
      return moved.length
    },

    /** Persists 'expired' for links past their expiry (the expire-links job); returns how many. */
    async expireDue(): Promise<number> {
      const t = now()
      let total = 0
      for (;;) {
        const expired = await store.expireDue(t, EXPIRE_BATCH)
        for (const r of expired)
          deps.events.emit('link.updated', { organizationId: r.organizationId, data: present(r, t) }, t)
        total += expired.length
        if (expired.length < EXPIRE_BATCH) return total
      }
    },
  }
}

/** `qr_` + the link id without its `lnk_` prefix. */
export function qrCodeIdOf(linkId: string): string {
  return `qr_${linkId.replace(/^lnk_/, '')}`
}
