import { iso, isoOrNull } from '../../clock.js'
import { AppError, collectProblems, notFound } from '../../http/errors.js'
import type { PageOf } from '../../../src/contract/common.js'
import type {
  BulkCreateResult,
  CreateLinkBody,
  ImportLinksBody,
  ImportLinksResult,
  Link,
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
} from './rules.js'
import { checkOg, checkRules, checkVariants, parseStartsAt } from './options.js'
import { hashPassword } from '../../password.js'
import { parseExpiry } from '../../http/expiry.js'
import { DEFAULT_QR_STYLE, renderQrCode, type QrImage } from '../../qr/index.js'
import { assignCodes } from './codes.js'
import type { LinkRecord } from './records.js'
import { presentLink, resolvedOf, type ResolvedLink } from './present.js'
import { bulkCreate } from './bulk.js'
import { importFile } from './import.js'
import { createLinkWriter, type NewItem } from './writer.js'
import type { UnitOfWork } from '../../db/unit-of-work.js'
import type {
  ClickDelta,
  OwnedLink,
  ItemValidator,
  LinkDestinations,
  LinkRef,
  LinkService,
  LinkServiceDeps,
  SafetyMatch,
} from './api.js'
import { destinationsOf } from './destinations.js'

/** Links expired per transaction by the expire-links job. */
const EXPIRE_BATCH = 1000

export function createLinkService(deps: LinkServiceDeps): LinkService {
  const { store } = deps
  const now = () => deps.clock.now()
  const writer = createLinkWriter(deps)
  const { destination, linkDomain, shortUrlOf } = writer
  const present = (l: LinkRecord, t: number) => presentLink(l, t, shortUrlOf)
  const load = (organizationId: string, id: string) => writer.load(organizationId, id, 'link')

  type Place = (body: CreateLinkBody) => ReturnType<typeof linkDomain>
  /** linkDomain for the items of one bulk call: each domain named (or none) is looked up once. */
  const placeOnce = (organizationId: string): Place => {
    const seen = new Map<string, ReturnType<typeof linkDomain>>()
    return (body) => {
      const key = `${body.customDomainId ?? ''}\n${body.domain ?? ''}`
      let place = seen.get(key)
      if (!place) seen.set(key, (place = linkDomain(organizationId, body)))
      return place
    }
  }

  /**
   * Every rule of a create body except short-code uniqueness (checked when inserting); one 400
   * names every field that breaks one. The row, and its custom slug when one was asked for.
   */
  async function draft(
    organizationId: string,
    body: CreateLinkBody,
    t: number,
    place: Place = (b) => linkDomain(organizationId, b),
  ): Promise<Omit<NewItem, 'index'>> {
    const p = collectProblems()
    const domain = await p.checkAsync(() => place(body))
    const customSlug =
      body.customSlug === undefined ? undefined : p.check(() => checkSlug(body.customSlug!, deps.reserved))
    const destinationUrl = p.check(() => destination(body.destinationUrl))
    const tags = p.check(() => normalizeTags(body.tags))
    const metadata = p.check(() => checkMetadata(body.metadata))
    const expiresAt = p.check(() => parseExpiry(body.expiresAt, t))
    const expiredUrl = body.expiredUrl ? p.check(() => destination(body.expiredUrl!, 'expiredUrl')) : null
    const startsAt = p.check(() => parseStartsAt(body.startsAt))
    const rules = p.check(() => checkRules(body.rules, destination))
    const variants = p.check(() => checkVariants(body.variants, destination))
    const og = p.check(() => checkOg(body.og))
    p.done()
    const record = writer.newRecord({
      organizationId,
      ...domain!,
      kind: 'link',
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
      variants: variants ?? [],
      // Hashed once the body is known to be good (scrypt is slow on purpose).
      passwordHash: body.password === undefined ? null : await hashPassword(body.password),
      og: og ?? null,
      createdAt: t,
    })
    await writer.guard(organizationId, destinationsOf(record))
    return { record, code: customSlug }
  }

  return {
    async create(organizationId: string, body: CreateLinkBody): Promise<Link> {
      const t = now()
      const d = await draft(organizationId, body, t)
      return present(await writer.insertOne(d.record, d.code, 'customSlug', t), t)
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
      const place = placeOnce(organizationId)
      return bulkCreate(items, validate, (body) => draft(organizationId, body, t, place), {
        writer,
        present: (l) => present(l, t),
        t,
      })
    },

    async importFile(
      organizationId: string,
      body: ImportLinksBody,
      validate: ItemValidator,
    ): Promise<ImportLinksResult> {
      const t = now()
      const place = placeOnce(organizationId)
      return importFile(body, validate, {
        draft: (b) => draft(organizationId, b, t, place),
        writer,
        present: (l) => present(l, t),
        t,
        ownsHost: (host) => deps.domains?.organizationOfHost(host) === organizationId,
      })
    },

    async list(organizationId: string, q: ListLinksQuery): Promise<PageOf<Link>> {
      const t = now()
      return writer.list(organizationId, 'link', q, t, (l) => present(l, t))
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
      const variants = p.check(() => checkVariants(body.variants, destination))
      const startsAt = p.check(() => parseStartsAt(body.startsAt))
      const og = p.check(() => checkOg(body.og))
      if (body.shortCode !== undefined) p.check(() => checkSlug(body.shortCode!, deps.reserved, 'shortCode'))
      p.done()
      await writer.guard(
        organizationId,
        destinationsOf({ kind: 'link', destinationUrl, expiredUrl, rules, variants }),
      )
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
        ...(variants !== undefined && { variants }),
        ...(passwordHash !== undefined && { passwordHash }),
        ...(og !== undefined && { og }),
      }
      return present(await writer.update(organizationId, l, body, patch, t), t)
    },

    async delete(organizationId: string, id: string): Promise<void> {
      await writer.remove(await load(organizationId, id), now())
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
      return l && resolvedOf(l, now(), shortUrlOf)
    },

    /** Any link or smart link of the organization (analytics read both by id); 404 otherwise. */
    async owned(organizationId: string, id: string): Promise<OwnedLink> {
      const l = await store.byId(organizationId, id)
      if (!l) throw notFound(`link ${id}`)
      return { id: l.id, kind: l.kind, shortUrl: shortUrlOf(l), variants: l.variants }
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

    async checkDestination(organizationId: string, url: string, field: string): Promise<string> {
      const checked = destination(url, field)
      await writer.guard(organizationId, [{ field, url: checked }])
      return checked
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
          links.filter((l) => clash.has(l.shortCode)).map((_, index) => ({ index, customSlug: undefined })),
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
      for (const l of moved) writer.announce('link.updated', l, t)
      return moved.length
    },

    /** Persists 'expired' for links past their expiry (the expire-links job); returns how many. */
    async expireDue(): Promise<number> {
      const t = now()
      let total = 0
      for (;;) {
        const expired = await store.expireDue(t, EXPIRE_BATCH)
        for (const r of expired) writer.announce('link.updated', r, t)
        total += expired.length
        if (expired.length < EXPIRE_BATCH) return total
      }
    },

    async destinationsPage(q: {
      organizationId?: string
      afterId: string
      limit: number
    }): Promise<LinkDestinations[]> {
      const rows = await store.pageById(q)
      return rows.map((l) => ({
        id: l.id,
        organizationId: l.organizationId,
        urls: destinationsOf(l).map((d) => d.url),
        flag: l.flag && { host: l.flag.host, list: l.flag.list },
      }))
    },

    async setFlag(organizationId: string, id: string, flag: SafetyMatch | null): Promise<boolean> {
      const l = await store.byId(organizationId, id)
      return l ? writer.setFlag(l, flag, now()) : false
    },
  }
}

/** `qr_` + the link id without its `lnk_` prefix. */
export function qrCodeIdOf(linkId: string): string {
  return `qr_${linkId.replace(/^lnk_/, '')}`
}
