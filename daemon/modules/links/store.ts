import { sql, type Kysely } from 'kysely'
import type { Database } from '../../db/schema.js'
import { atomically, kyselyOf, type UnitOfWork } from '../../db/unit-of-work.js'
import type { LinkStatus } from '../../../src/contract/limits.js'
import { patchRow, toRecord, toRow, type LinkKind, type LinkPatch, type LinkRecord } from './records.js'

export interface LinkListQuery {
  kind: LinkKind
  status?: LinkStatus | undefined
  search?: string | undefined
  /** Exactly this short code (on any domain). */
  shortCode?: string | undefined
  tag?: string | undefined
  sortBy: 'createdAt' | 'clicks'
  sortOrder: 'asc' | 'desc'
  now: number
  limit: number
  offset: number
}

const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/** The links tables (links, link_tags): what the links service may ask of them. */
export interface LinkQueries {
  byId(organizationId: string, id: string): Promise<LinkRecord | undefined>
  byCode(domainKey: string, shortCode: string): Promise<LinkRecord | undefined>
  /** Links on a domain (by domain key). */
  onDomain(domainKey: string): Promise<LinkRecord[]>
  moveToDomain(
    id: string,
    domainKey: string,
    customDomainId: string | null,
    shortCode: string,
    now: number,
  ): Promise<void>
  /** Which of `codes` are already taken on the domain. */
  takenCodes(domainKey: string, codes: string[]): Promise<Set<string>>
  /** Inserts links and their tag rows (inside `transaction` for several). */
  insert(links: LinkRecord[]): Promise<void>
  /** One page in the order asked for and the total matching the filter. */
  list(organizationId: string, q: LinkListQuery): Promise<{ rows: LinkRecord[]; total: number }>
  /** Updates a link and, when given, replaces its tags, atomically. */
  update(id: string, p: LinkPatch): Promise<void>
  /** Deletes the link and its tags. */
  delete(id: string): Promise<void>
  /** Persists 'expired' on up to `limit` active/inactive links past their expiry; returns them. */
  expireDue(now: number, limit: number): Promise<LinkRecord[]>
  /** Adds human clicks, inside the click recorder's unit of work when given; missing links skipped. */
  addClicks(deltas: ReadonlyArray<{ linkId: string; clicks: number }>, within?: UnitOfWork): Promise<void>
  /** Which of `ids` are links that exist. */
  existingIds(ids: readonly string[]): Promise<Set<string>>
  /** Records the first QR generation; true when this call was the first. */
  markQrCreated(id: string, now: number): Promise<boolean>
  /**
   * A redirect of a link with maxClicks: a human click takes one of the remaining clicks
   * atomically (true when there was one); a bot only asks whether one remains.
   */
  takeCappedClick(id: string, human: boolean): Promise<boolean>
  /** Sum of the clicks of the organization's links on custom domains. */
  customDomainClicks(organizationId: string): Promise<number>
  /** Up to `limit` links (either kind) with ids after `afterId`, in id order; one organization's when given. */
  pageById(q: { organizationId?: string | undefined; afterId: string; limit: number }): Promise<LinkRecord[]>
  /** Sets or clears a link's safety flag (not an edit: updated_at is kept). */
  setFlag(id: string, flag: LinkRecord['flag']): Promise<void>
}

/** The link store port: its queries, and a unit of work running several of them atomically. */
export interface LinkStore extends LinkQueries {
  /** Runs `fn` with the queries bound to one transaction (use only those inside). */
  transaction<T>(fn: (tx: LinkQueries) => Promise<T>): Promise<T>
}

/** The SQLite (Kysely) implementation. */
export function createLinkStore(db: Kysely<Database>): LinkStore {
  return {
    ...queries(db),
    transaction: (fn) => db.transaction().execute((trx) => fn(queries(trx))),
  }
}

function queries(db: Kysely<Database>): LinkQueries {
  return {
    async byId(organizationId: string, id: string): Promise<LinkRecord | undefined> {
      const r = await db
        .selectFrom('links')
        .selectAll()
        .where('id', '=', id)
        .where('organization_id', '=', organizationId)
        .executeTakeFirst()
      return r && toRecord(r)
    },

    async byCode(domainKey: string, shortCode: string): Promise<LinkRecord | undefined> {
      const r = await db
        .selectFrom('links')
        .selectAll()
        .where('domain_key', '=', domainKey)
        .where('short_code', '=', shortCode)
        .executeTakeFirst()
      return r && toRecord(r)
    },

    /** Links on a domain (by domain key). */
    async onDomain(domainKey: string): Promise<LinkRecord[]> {
      const rows = await db.selectFrom('links').selectAll().where('domain_key', '=', domainKey).execute()
      return rows.map(toRecord)
    },

    async moveToDomain(
      id: string,
      domainKey: string,
      customDomainId: string | null,
      shortCode: string,
      now: number,
    ): Promise<void> {
      await db
        .updateTable('links')
        .set({
          domain_key: domainKey,
          custom_domain_id: customDomainId,
          short_code: shortCode,
          updated_at: now,
        })
        .where('id', '=', id)
        .execute()
    },

    async pageById(q: {
      organizationId?: string | undefined
      afterId: string
      limit: number
    }): Promise<LinkRecord[]> {
      let query = db.selectFrom('links').selectAll().where('id', '>', q.afterId)
      if (q.organizationId !== undefined) query = query.where('organization_id', '=', q.organizationId)
      const rows = await query.orderBy('id').limit(q.limit).execute()
      return rows.map(toRecord)
    },

    async setFlag(id: string, flag: LinkRecord['flag']): Promise<void> {
      await db
        .updateTable('links')
        .set({
          flagged_host: flag?.host ?? null,
          flagged_list: flag?.list ?? null,
          flagged_at: flag?.at ?? null,
        })
        .where('id', '=', id)
        .execute()
    },

    /** Which of `codes` are already taken on the domain. */
    async takenCodes(domainKey: string, codes: string[]): Promise<Set<string>> {
      const taken = new Set<string>()
      for (let i = 0; i < codes.length; i += 500) {
        const rows = await db
          .selectFrom('links')
          .select('short_code')
          .where('domain_key', '=', domainKey)
          .where('short_code', 'in', codes.slice(i, i + 500))
          .execute()
        for (const r of rows) taken.add(r.short_code)
      }
      return taken
    },

    /** Inserts links and their tag rows (call inside a transaction for several). */
    async insert(links: LinkRecord[]): Promise<void> {
      for (let i = 0; i < links.length; i += 100) {
        const chunk = links.slice(i, i + 100)
        await db.insertInto('links').values(chunk.map(toRow)).execute()
        const tags = chunk.flatMap((l) =>
          l.tags.map((tag) => ({ link_id: l.id, organization_id: l.organizationId, tag })),
        )
        for (let j = 0; j < tags.length; j += 300)
          await db
            .insertInto('link_tags')
            .values(tags.slice(j, j + 300))
            .execute()
      }
    },

    async list(organizationId: string, q: LinkListQuery): Promise<{ rows: LinkRecord[]; total: number }> {
      let base = db
        .selectFrom('links')
        .where('organization_id', '=', organizationId)
        .where('kind', '=', q.kind)
      // The status users see: past expiresAt, or an active link with every maxClicks click taken, is expired.
      if (q.status === 'expired') {
        base = base.where((eb) =>
          eb.or([
            eb('status', '=', 'expired'),
            eb.and([eb('status', 'in', ['active', 'inactive']), eb('expires_at', '<=', q.now)]),
            eb.and([
              eb('status', '=', 'active'),
              eb('max_clicks', 'is not', null),
              eb('capped_clicks', '>=', eb.ref('max_clicks')),
            ]),
          ]),
        )
      } else if (q.status) {
        base = base
          .where('status', '=', q.status)
          .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', q.now)]))
        if (q.status === 'active')
          base = base.where((eb) =>
            eb.or([eb('max_clicks', 'is', null), eb('capped_clicks', '<', eb.ref('max_clicks'))]),
          )
      }
      if (q.search) {
        const pattern = likePattern(q.search)
        base = base.where((eb) =>
          eb.or([
            sql<boolean>`lower(coalesce(title, '')) LIKE ${pattern} ESCAPE '\\'`,
            sql<boolean>`lower(short_code) LIKE ${pattern} ESCAPE '\\'`,
            sql<boolean>`lower(destination_url) LIKE ${pattern} ESCAPE '\\'`,
            // A smart link's target URLs (its JSON text).
            ...(q.kind === 'smart'
              ? [sql<boolean>`lower(coalesce(targets, '')) LIKE ${pattern} ESCAPE '\\'`]
              : []),
          ]),
        )
      }
      if (q.shortCode !== undefined) base = base.where('short_code', '=', q.shortCode)
      if (q.tag !== undefined) {
        const tag = q.tag
        base = base.where((eb) =>
          eb.exists(
            eb
              .selectFrom('link_tags')
              .select('link_tags.link_id')
              .whereRef('link_tags.link_id', '=', 'links.id')
              .where('link_tags.organization_id', '=', organizationId)
              .where('link_tags.tag', '=', tag),
          ),
        )
      }
      const column = q.sortBy === 'clicks' ? 'clicks' : 'created_at'
      let ordered = base.selectAll().orderBy(column, q.sortOrder)
      if (column === 'clicks') ordered = ordered.orderBy('created_at', q.sortOrder)
      const [rows, count] = await Promise.all([
        ordered.orderBy('id', q.sortOrder).limit(q.limit).offset(q.offset).execute(),
        base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ])
      return { rows: rows.map(toRecord), total: Number(count.n) }
    },

    async update(id: string, p: LinkPatch): Promise<void> {
      await atomically(db, async (trx) => {
        await trx.updateTable('links').set(patchRow(p)).where('id', '=', id).execute()
        if (p.tags !== undefined) {
          const row = await trx
            .selectFrom('links')
            .select('organization_id')
            .where('id', '=', id)
            .executeTakeFirstOrThrow()
          await trx.deleteFrom('link_tags').where('link_id', '=', id).execute()
          if (p.tags.length)
            await trx
              .insertInto('link_tags')
              .values(p.tags.map((tag) => ({ link_id: id, organization_id: row.organization_id, tag })))
              .execute()
        }
      })
    },

    /** Deletes the link and (by cascade, and explicitly for databases without it) its tags. */
    async delete(id: string): Promise<void> {
      await atomically(db, async (trx) => {
        await trx.deleteFrom('link_tags').where('link_id', '=', id).execute()
        await trx.deleteFrom('links').where('id', '=', id).execute()
      })
    },

    /** Persists 'expired' on up to `limit` active/inactive links past their expiry; returns them. */
    async expireDue(now: number, limit: number): Promise<LinkRecord[]> {
      return atomically(db, async (trx) => {
        const due = await trx
          .selectFrom('links')
          .selectAll()
          .where('status', 'in', ['active', 'inactive'])
          .where('expires_at', '<=', now)
          .limit(limit)
          .execute()
        if (due.length === 0) return []
        const ids = due.map((r) => r.id)
        for (let i = 0; i < ids.length; i += 500)
          await trx
            .updateTable('links')
            .set({ status: 'expired', updated_at: now })
            .where('id', 'in', ids.slice(i, i + 500))
            .where('status', 'in', ['active', 'inactive'])
            .execute()
        return due.map((r) => ({ ...toRecord(r), status: 'expired' as const, updatedAt: now }))
      })
    },

    /**
     * Adds human clicks: one UPDATE per link, in the caller's unit of work or on the db, in link
     * id order, so that concurrent flushes (several processes) lock the links in one order.
     */
    async addClicks(deltas: ReadonlyArray<{ linkId: string; clicks: number }>, within?: UnitOfWork) {
      const ex = within ? kyselyOf(within) : db
      const ordered = [...deltas].sort((a, b) => (a.linkId < b.linkId ? -1 : a.linkId > b.linkId ? 1 : 0))
      for (const d of ordered) {
        if (d.clicks === 0) continue
        await ex
          .updateTable('links')
          .set({ clicks: sql`clicks + ${d.clicks}` })
          .where('id', '=', d.linkId)
          .execute()
      }
    },

    /** Which of `ids` are links that exist, asked in chunks of 500. */
    async existingIds(ids: readonly string[]): Promise<Set<string>> {
      const found = new Set<string>()
      for (let i = 0; i < ids.length; i += 500) {
        const rows = await db
          .selectFrom('links')
          .select('id')
          .where('id', 'in', ids.slice(i, i + 500))
          .execute()
        for (const r of rows) found.add(r.id)
      }
      return found
    },

    /** Records the first QR generation; true when this call was the first. */
    async markQrCreated(id: string, now: number): Promise<boolean> {
      const r = await db
        .updateTable('links')
        .set({ qr_created_at: now })
        .where('id', '=', id)
        .where('qr_created_at', 'is', null)
        .executeTakeFirst()
      return Number(r.numUpdatedRows) === 1
    },

    async takeCappedClick(id: string, human: boolean): Promise<boolean> {
      if (!human) {
        const r = await db
          .selectFrom('links')
          .select(['capped_clicks', 'max_clicks'])
          .where('id', '=', id)
          .executeTakeFirst()
        return r !== undefined && (r.max_clicks === null || Number(r.capped_clicks) < Number(r.max_clicks))
      }
      // One statement: concurrent redirects (several processes on PostgreSQL) cannot both take
      // the last click; the row lock orders them.
      const r = await db
        .updateTable('links')
        .set({ capped_clicks: sql`capped_clicks + 1` })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('max_clicks', 'is', null), eb('capped_clicks', '<', eb.ref('max_clicks'))]))
        .executeTakeFirst()
      return Number(r.numUpdatedRows) === 1
    },

    async customDomainClicks(organizationId: string): Promise<number> {
      const r = await db
        .selectFrom('links')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('clicks'), eb.lit(0)).as('n'))
        .where('organization_id', '=', organizationId)
        .where('custom_domain_id', 'is not', null)
        .executeTakeFirstOrThrow()
      return Number(r.n)
    },
  }
}
