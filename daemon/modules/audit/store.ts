/**
 * The audit log table (`audit_log`): SQL only, on SQLite and PostgreSQL. It names members, keys
 * and resources by id and holds no player data, so the GDPR purge (gaming/gdpr) has nothing here.
 */
import type { Kysely, Selectable } from 'kysely'
import type { Database } from '../../db/schema.js'
import type { AuditLogTable } from '../../db/schema/team.js'

/** One entry as stored (times in Unix ms). */
export interface AuditRecord {
  id: string
  organizationId: string
  at: number
  memberId: string | null
  keyId: string | null
  action: string
  resourceType: string
  resourceId: string | null
  ip: string | null
  statusCode: number
}

/** A list filter of one organization's entries; `since`/`until` inclusive, Unix ms. */
export interface AuditFilter {
  memberId?: string | undefined
  action?: string | undefined
  resourceType?: string | undefined
  since?: number | undefined
  until?: number | undefined
}

export interface AuditStore {
  /** Writes buffered entries in one statement. */
  insert(entries: AuditRecord[]): Promise<void>
  /** One page newest first (ties by id) and the total matching the filter. */
  list(
    organizationId: string,
    f: AuditFilter,
    limit: number,
    offset: number,
  ): Promise<{ rows: AuditRecord[]; total: number }>
  /** Deletes entries older than `before`; returns how many. */
  prune(before: number): Promise<number>
}

/** Rows of one statement: PostgreSQL takes at most 65,535 parameters (10 per row). */
const CHUNK = 500

const fromRow = (r: Selectable<AuditLogTable>): AuditRecord => ({
  id: r.id,
  organizationId: r.organization_id,
  at: Number(r.at),
  memberId: r.member_id,
  keyId: r.key_id,
  action: r.action,
  resourceType: r.resource_type,
  resourceId: r.resource_id,
  ip: r.ip,
  statusCode: Number(r.status_code),
})

export function createAuditStore(db: Kysely<Database>): AuditStore {
  return {
    async insert(entries) {
      for (let i = 0; i < entries.length; i += CHUNK) {
        await db
          .insertInto('audit_log')
          .values(
            entries.slice(i, i + CHUNK).map((e) => ({
              id: e.id,
              organization_id: e.organizationId,
              at: e.at,
              member_id: e.memberId,
              key_id: e.keyId,
              action: e.action,
              resource_type: e.resourceType,
              resource_id: e.resourceId,
              ip: e.ip,
              status_code: e.statusCode,
            })),
          )
          .onConflict((oc) => oc.column('id').doNothing())
          .execute()
      }
    },

    async list(organizationId, f, limit, offset) {
      let q = db.selectFrom('audit_log').where('organization_id', '=', organizationId)
      if (f.memberId !== undefined) q = q.where('member_id', '=', f.memberId)
      if (f.action !== undefined) q = q.where('action', '=', f.action)
      if (f.resourceType !== undefined) q = q.where('resource_type', '=', f.resourceType)
      if (f.since !== undefined) q = q.where('at', '>=', f.since)
      if (f.until !== undefined) q = q.where('at', '<=', f.until)
      const [rows, count] = await Promise.all([
        q.selectAll().orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
        q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ])
      return { rows: rows.map(fromRow), total: Number(count.n) }
    },

    async prune(before) {
      const r = await db.deleteFrom('audit_log').where('at', '<', before).executeTakeFirst()
      return Number(r.numDeletedRows)
    },
  }
}
