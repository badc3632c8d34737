import { sql, type Kysely, type Selectable } from 'kysely'
import type { Database } from '../../db/schema.js'
import { kyselyOf, type UnitOfWork } from '../../db/unit-of-work.js'
import type { StoredQrStyle } from '../../qr/index.js'

/** A QR code as stored; `linkKind` is the kind of its `links` row (a link or a smart link). */
export interface QrCodeRecord {
  id: string
  organizationId: string
  linkId: string
  linkKind: 'link' | 'smart'
  title: string | null
  style: StoredQrStyle
  scans: number
  createdAt: number
  updatedAt: number
}

/** Scans of one code counted by one flush: the code counts them only when it is a code of `linkId`. */
export interface QrScanDelta {
  qrCodeId: string
  linkId: string
  scans: number
}

export interface QrCodeStore {
  insert(r: Omit<QrCodeRecord, 'linkKind' | 'scans'>): Promise<void>
  byId(organizationId: string, id: string): Promise<QrCodeRecord | undefined>
  /** Newest first; `linkId` with its kind filters to the codes of that link or smart link. */
  list(
    organizationId: string,
    q: { link?: { id: string; kind: 'link' | 'smart' }; limit: number; offset: number },
  ): Promise<{ rows: QrCodeRecord[]; total: number }>
  update(id: string, p: { title?: string | null; style?: StoredQrStyle; updatedAt: number }): Promise<void>
  delete(id: string): Promise<void>
  /**
   * Adds scans inside the click flush's unit of work (one UPDATE per code); returns the ids that
   * counted (a deleted code, or one of another link, counts nowhere).
   */
  addScans(deltas: ReadonlyArray<QrScanDelta>, unit: UnitOfWork): Promise<Set<string>>
}

type Row = Selectable<Database['qr_codes']> & { kind: string }

function toRecord(r: Row): QrCodeRecord {
  return {
    id: r.id,
    organizationId: r.organization_id,
    linkId: r.link_id,
    linkKind: r.kind === 'smart' ? 'smart' : 'link',
    title: r.title,
    style: JSON.parse(r.style) as StoredQrStyle,
    scans: Number(r.scans),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  }
}

/** The qr_codes table (Kysely: both engines). */
export function createQrCodeStore(db: Kysely<Database>): QrCodeStore {
  const base = (organizationId: string) =>
    db
      .selectFrom('qr_codes')
      .innerJoin('links', 'links.id', 'qr_codes.link_id')
      .where('qr_codes.organization_id', '=', organizationId)

  return {
    async insert(r) {
      await db
        .insertInto('qr_codes')
        .values({
          id: r.id,
          organization_id: r.organizationId,
          link_id: r.linkId,
          title: r.title,
          style: JSON.stringify(r.style),
          created_at: r.createdAt,
          updated_at: r.updatedAt,
        })
        .execute()
    },

    async byId(organizationId, id) {
      const r = await base(organizationId)
        .selectAll('qr_codes')
        .select('links.kind')
        .where('qr_codes.id', '=', id)
        .executeTakeFirst()
      return r && toRecord(r)
    },

    async list(organizationId, q) {
      let query = base(organizationId)
      if (q.link)
        query = query.where('qr_codes.link_id', '=', q.link.id).where('links.kind', '=', q.link.kind)
      const [rows, count] = await Promise.all([
        query
          .selectAll('qr_codes')
          .select('links.kind')
          .orderBy('qr_codes.created_at', 'desc')
          .orderBy('qr_codes.id', 'desc')
          .limit(q.limit)
          .offset(q.offset)
          .execute(),
        query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ])
      return { rows: rows.map((r) => toRecord(r)), total: Number(count.n) }
    },

    async update(id, p) {
      await db
        .updateTable('qr_codes')
        .set({
          ...(p.title !== undefined && { title: p.title }),
          ...(p.style !== undefined && { style: JSON.stringify(p.style) }),
          updated_at: p.updatedAt,
        })
        .where('id', '=', id)
        .execute()
    },

    async delete(id) {
      await db.deleteFrom('qr_codes').where('id', '=', id).execute()
    },

    async addScans(deltas, unit) {
      const ex = kyselyOf(unit)
      const counted = new Set<string>()
      // In id order, as links.clicks is: concurrent flushes take the row locks in one order.
      const ordered = [...deltas].sort((a, b) =>
        a.qrCodeId < b.qrCodeId ? -1 : a.qrCodeId > b.qrCodeId ? 1 : 0,
      )
      for (const d of ordered) {
        if (d.scans === 0) continue
        const r = await ex
          .updateTable('qr_codes')
          .set({ scans: sql`scans + ${d.scans}` })
          .where('id', '=', d.qrCodeId)
          .where('link_id', '=', d.linkId)
          .returning('id')
          .executeTakeFirst()
        if (r) counted.add(r.id)
      }
      return counted
    },
  }
}
