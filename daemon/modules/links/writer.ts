/**
 * The one writer of `links` rows, for links and smart links alike: where a row lives and where
 * it may point (placement.ts), its short code (a chosen one checked free, else generated), the
 * defaults of a new row, the reads by kind, and the link.created / link.updated / link.deleted
 * event each write announces.
 */
import { iso } from '../../clock.js'
import { newId } from '../../crypto.js'
import { isUniqueViolation } from '../../db/errors.js'
import { AppError, notFound } from '../../http/errors.js'
import { pageOf, pageParams } from '../../http/pagination.js'
import type { PageOf, PageQuery } from '../../../src/contract/common.js'
import type { LinkStatus } from '../../../src/contract/limits.js'
import { assignCodes, codeTaken } from './codes.js'
import { createLinkPlacement } from './placement.js'
import { eventData } from './present.js'
import type { LinkKind, LinkPatch, LinkRecord } from './records.js'
import type { LinkServiceDeps, SafetyMatch } from './api.js'
import { destinationsOf, type Destination } from './destinations.js'

/** A new row's own fields; the others take the defaults of a link without options. */
export type NewRow = Pick<
  LinkRecord,
  'organizationId' | 'domainKey' | 'customDomainId' | 'destinationUrl' | 'kind' | 'createdAt'
> &
  Partial<LinkRecord>

/** A row to insert and its chosen short code (undefined: generated). */
export interface NewItem {
  index: number
  record: LinkRecord
  code: string | undefined
}

/** What a list asks: its page, the trimmed search and tag, and the order. */
export type ListAsk = PageQuery & {
  search?: string | undefined
  shortCode?: string | undefined
  tag?: string | undefined
  status?: LinkStatus | undefined
  sortBy?: 'createdAt' | 'clicks' | undefined
  sortOrder?: 'asc' | 'desc' | undefined
}

export function createLinkWriter(deps: LinkServiceDeps) {
  const { store } = deps
  const placement = createLinkPlacement(deps)
  const { shortUrlOf, newPlace, writePatch } = placement

  const announce = (name: 'link.created' | 'link.updated', l: LinkRecord, t: number) =>
    deps.events.emit(name, { organizationId: l.organizationId, data: eventData(l, t, shortUrlOf) }, t)

  /** A new row: a fresh id (`lnk_` or `sml_`), no code yet, `fields` over the defaults. */
  function newRecord(fields: NewRow): LinkRecord {
    return {
      id: newId(fields.kind === 'smart' ? 'sml' : 'lnk'),
      shortCode: '',
      title: null,
      status: 'active',
      redirectType: 302,
      tags: [],
      metadata: {},
      expiresAt: null,
      clicks: 0,
      qrCreatedAt: null,
      updatedAt: fields.createdAt,
      expiredUrl: null,
      maxClicks: null,
      startsAt: null,
      forwardQuery: true,
      rules: [],
      cappedClicks: 0,
      passwordHash: null,
      og: null,
      targets: null,
      appendClickId: true,
      gameId: null,
      variants: [],
      flag: null,
      ...fields,
    }
  }

  /** The organization's row of that kind; 404 otherwise (a smart link is not a link, and the reverse). */
  async function load(organizationId: string, id: string, kind: LinkKind): Promise<LinkRecord> {
    const l = await store.byId(organizationId, id)
    if (!l || l.kind !== kind) throw notFound(`${kind === 'smart' ? 'smart link' : 'link'} ${id}`)
    return l
  }

  /**
   * Gives each row its short code and inserts the ones that got one, in one transaction; a
   * chosen code taken on its domain (already, or earlier in the batch) fails that item with
   * 409 on `field`. Announces link.created for each row inserted. A dry run does all of it but
   * the insert and the events.
   */
  async function insert(
    items: NewItem[],
    field: 'customSlug' | 'shortCode',
    t: number,
    opts: { dryRun?: boolean } = {},
  ): Promise<Map<number, LinkRecord | AppError>> {
    const out = new Map<number, LinkRecord | AppError>()
    const inserted: LinkRecord[] = []
    try {
      await store.transaction(async (tx) => {
        const byDomain = new Map<string, NewItem[]>()
        for (const i of items)
          byDomain.set(i.record.domainKey, [...(byDomain.get(i.record.domainKey) ?? []), i])
        for (const [domainKey, group] of byDomain) {
          const codes = await assignCodes(
            (list) => tx.takenCodes(domainKey, list),
            group.map((i) => ({ index: i.index, customSlug: i.code })),
            deps.reserved,
            { field },
          )
          for (const { index, record } of group) {
            const code = codes.get(index)
            if (code instanceof AppError || code === undefined) {
              out.set(index, code ?? new AppError('InternalError', 'no short code'))
              continue
            }
            record.shortCode = code
            inserted.push(record)
            out.set(index, record)
          }
        }
        if (!opts.dryRun) await tx.insert(inserted)
      })
    } catch (err) {
      if (!isUniqueViolation(err)) throw err
      // Another writer took a code between the check and the insert.
      const only = items.length === 1 ? items[0]!.code : undefined
      if (only !== undefined) throw codeTaken(only, field)
      throw new AppError('Conflict', 'a short code was taken concurrently; retry the request')
    }
    if (!opts.dryRun) for (const r of inserted) announce('link.created', r, t)
    return out
  }

  /** The destination guard (safety lists): 400 DestinationBlocked when one is listed. */
  async function guard(organizationId: string, destinations: readonly Destination[]): Promise<void> {
    if (deps.destinationGuard && destinations.length > 0)
      await deps.destinationGuard.assertDestinationsAllowed(organizationId, destinations)
  }

  /**
   * Sets or clears a flag (no edit: updated_at kept); a new flag announces link.flagged, any
   * change link.updated (the link's `flagged` field, and the redirect caches forget it).
   */
  async function setFlag(l: LinkRecord, match: SafetyMatch | null, t: number): Promise<boolean> {
    const same = match === null ? l.flag === null : l.flag?.host === match.host && l.flag.list === match.list
    if (same) return false
    const flag = match && { ...match, at: t }
    await store.setFlag(l.id, flag)
    const updated = { ...l, flag }
    if (flag) {
      deps.events.emit(
        'link.flagged',
        {
          organizationId: l.organizationId,
          data: {
            linkId: l.id,
            shortUrl: shortUrlOf(l),
            host: flag.host,
            list: flag.list,
            flaggedAt: iso(t),
            ...(l.kind === 'smart' && { kind: 'smart' as const }),
          },
        },
        t,
      )
    }
    announce('link.updated', updated, t)
    return true
  }

  return {
    ...placement,
    newRecord,
    announce,
    load,
    guard,
    setFlag,

    /** One page of the organization's rows of that kind (search and tag trimmed; blank: none). */
    async list<T>(
      organizationId: string,
      kind: LinkKind,
      q: ListAsk,
      t: number,
      present: (l: LinkRecord) => T,
    ): Promise<PageOf<T>> {
      const p = pageParams(q)
      const { rows, total } = await store.list(organizationId, {
        kind,
        status: q.status,
        search: q.search?.trim() || undefined,
        shortCode: q.shortCode,
        tag: q.tag?.trim() || undefined,
        sortBy: q.sortBy ?? 'createdAt',
        sortOrder: q.sortOrder ?? 'desc',
        now: t,
        limit: p.perPage,
        offset: p.offset,
      })
      return pageOf(rows.map(present), total, p)
    },

    insert,

    /** insert() of one row: the row as inserted, or its error thrown. */
    async insertOne(
      record: LinkRecord,
      code: string | undefined,
      field: 'customSlug' | 'shortCode',
      t: number,
    ): Promise<LinkRecord> {
      const r = (await insert([{ index: 0, record, code }], field, t)).get(0)
      if (r instanceof AppError) throw r
      if (!r)
        throw new AppError(
          'InternalError',
          `${record.kind === 'smart' ? 'smart link' : 'link'} was not created`,
        )
      return r
    },

    /**
     * Writes a PATCH of `l` (a move when `body` names a new shortCode or customDomainId: see
     * newPlace), announces link.updated and returns the row as stored.
     */
    async update(
      organizationId: string,
      l: LinkRecord,
      body: Parameters<typeof newPlace>[2],
      patch: Omit<LinkPatch, 'place' | 'updatedAt'>,
      t: number,
    ): Promise<LinkRecord> {
      const place = await newPlace(organizationId, l, body)
      await writePatch(l.id, { ...patch, ...(place !== undefined && { place }), updatedAt: t })
      let updated = await load(organizationId, l.id, l.kind)
      if (updated.flag !== null && destinationsOf({ kind: l.kind, ...patch }).length > 0) {
        // New destinations (checked clean by the caller): the flag stays only while another is listed.
        const match = await deps.destinationGuard?.firstMatch(
          organizationId,
          destinationsOf(updated).map((d) => d.url),
        )
        const flag = match ? { ...match, at: updated.flag.at } : null
        await store.setFlag(l.id, flag)
        updated = { ...updated, flag }
      }
      announce('link.updated', updated, t)
      return updated
    },

    /** Deletes the row and its tags; announces link.deleted (`kind: 'smart'` for a smart link). */
    async remove(l: LinkRecord, t: number): Promise<void> {
      await store.delete(l.id)
      deps.events.emit(
        'link.deleted',
        {
          organizationId: l.organizationId,
          data: {
            id: l.id,
            shortUrl: shortUrlOf(l),
            shortCode: l.shortCode,
            deletedAt: iso(t),
            ...(l.kind === 'smart' && { kind: 'smart' as const }),
          },
        },
        t,
      )
    },
  }
}
export type LinkWriter = ReturnType<typeof createLinkWriter>
