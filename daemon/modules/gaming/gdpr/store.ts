import type { Kysely, Selectable } from 'kysely'
import type { Database, GdprDeletionsTable } from '../../../db/schema.js'
import { newestFirstPage } from '../../../db/paginate.js'

export interface DeletionRecord {
  id: string
  organizationId: string
  gameId: string
  gameSlug: string
  playerId: string
  reason: string
  status: 'queued' | 'processing' | 'completed'
  createdAt: number
  startedAt: number | null
  completedAt: number | null
  purged: Record<string, number> | null
  expiresAt: number
}

const toRecord = (r: Selectable<GdprDeletionsTable>): DeletionRecord => ({
  id: r.id,
  organizationId: r.organization_id,
  gameId: r.game_id,
  gameSlug: r.game_slug,
  playerId: r.player_id,
  reason: r.reason,
  status: r.status as DeletionRecord['status'],
  createdAt: r.created_at,
  startedAt: r.started_at,
  completedAt: r.completed_at,
  purged: r.purged ? (JSON.parse(r.purged) as Record<string, number>) : null,
  expiresAt: r.expires_at,
})

/** The gdpr_deletions table: the port the GDPR service depends on. */
export interface GdprStore {
  insert(d: DeletionRecord): Promise<void>
  byId(organizationId: string, id: string): Promise<DeletionRecord | undefined>
  /** Requests not completed yet (a processing one left by a crash is taken again), oldest first. */
  pending(limit: number): Promise<DeletionRecord[]>
  markProcessing(id: string, at: number): Promise<void>
  complete(id: string, at: number, purged: Record<string, number>, expiresAt: number): Promise<void>
  /** Deletes completed records past their expiry; returns how many. */
  purgeExpired(now: number): Promise<number>
  /** A page of the organization's records, newest first (created, then id), and how many match. */
  page(
    organizationId: string,
    filter: { gameSlug?: string; status?: DeletionRecord['status'] },
    page: { limit: number; offset: number },
  ): Promise<{ rows: DeletionRecord[]; total: number }>
}

/** The SQLite (Kysely) implementation. */
export function createGdprStore(db: Kysely<Database>): GdprStore {
  return {
    async insert(d: DeletionRecord): Promise<void> {
      await db
        .insertInto('gdpr_deletions')
        .values({
          id: d.id,
          organization_id: d.organizationId,
          game_id: d.gameId,
          game_slug: d.gameSlug,
          player_id: d.playerId,
          reason: d.reason,
          status: d.status,
          created_at: d.createdAt,
          started_at: d.startedAt,
          completed_at: d.completedAt,
          purged: d.purged ? JSON.stringify(d.purged) : null,
          expires_at: d.expiresAt,
        })
        .execute()
    },
    async byId(organizationId: string, id: string): Promise<DeletionRecord | undefined> {
      const r = await db
        .selectFrom('gdpr_deletions')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .executeTakeFirst()
      return r && toRecord(r)
    },
    /** Requests not completed yet (a processing one left by a crash is taken again), oldest first. */
    async pending(limit: number): Promise<DeletionRecord[]> {
      const rows = await db
        .selectFrom('gdpr_deletions')
        .selectAll()
        .where('status', 'in', ['queued', 'processing'])
        .orderBy('created_at')
        .limit(limit)
        .execute()
      return rows.map(toRecord)
    },
    async markProcessing(id: string, at: number): Promise<void> {
      await db
        .updateTable('gdpr_deletions')
        .set({ status: 'processing', started_at: at })
        .where('id', '=', id)
        .execute()
    },
    async complete(id: string, at: number, purged: Record<string, number>, expiresAt: number): Promise<void> {
      await db
        .updateTable('gdpr_deletions')
        .set({ status: 'completed', completed_at: at, purged: JSON.stringify(purged), expires_at: expiresAt })
        .where('id', '=', id)
        .execute()
    },
    async page(organizationId, filter, page) {
      let q = db.selectFrom('gdpr_deletions').where('organization_id', '=', organizationId)
      // By the game's public id as recorded: a deleted game's records stay listable.
      if (filter.gameSlug !== undefined) q = q.where('game_slug', '=', filter.gameSlug)
      if (filter.status !== undefined) q = q.where('status', '=', filter.status)
      const { rows, total } = await newestFirstPage(q, page)
      return { rows: rows.map(toRecord), total }
    },
    async purgeExpired(now: number): Promise<number> {
      const r = await db
        .deleteFrom('gdpr_deletions')
        .where('status', '=', 'completed')
        .where('expires_at', '<=', now)
        .executeTakeFirst()
      return Number(r.numDeletedRows)
    },
  }
}
