/**
 * SQL of the safety lists (both engines): uploads, their hosts, the lookup by host. Loading
 * millions of hosts is the one hot path: a prepared statement per host inside a Kysely
 * transaction on SQLite, one `unnest` statement per batch on PostgreSQL.
 */
import { CompiledQuery, sql, type Kysely, type Selectable } from 'kysely'
import type { Db } from '../../db/open.js'
import type { Database, SafetyListsTable } from '../../db/schema.js'
import type { SafetyFormat } from '../../../src/contract/safety.js'

// A constant compared with the column of a partial index (safety_lists.state,
// custom_domains.verification_status) is written inline with sql.lit: bound as a parameter, it
// makes SQLite prepare the statement again on every run (~25 µs) to re-check the index's WHERE.

export type UploadState = 'loading' | 'ready' | 'deleting'

/** One upload of a list (`listId` is the public id). */
export interface UploadRecord {
  id: string
  listId: string
  organizationId: string
  name: string
  format: SafetyFormat
  entries: number
  skipped: number
  state: UploadState
  createdAt: number
  updatedAt: number
}

/** A listed host that matched, with the list's name and organization. */
export interface HostMatch {
  organizationId: string
  host: string
  list: string
}

const toRecord = (r: Selectable<SafetyListsTable>): UploadRecord => ({
  id: r.id,
  listId: r.list_id,
  organizationId: r.organization_id,
  name: r.name,
  format: r.format as SafetyFormat,
  entries: Number(r.entries),
  skipped: Number(r.skipped),
  state: r.state as UploadState,
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
})

/** Hosts per lookup statement. */
const LOOKUP_HOSTS = 1000

/** Adds hosts to an upload in one transaction; returns how many were new to it. */
type AddHosts = (uploadId: string, hosts: readonly string[]) => Promise<number>

function sqliteAddHosts(db: Extract<Db, { dialect: 'sqlite' }>): AddHosts {
  const insert = db.sqlite.prepare(
    'INSERT INTO safety_list_hosts (upload_id, host) VALUES (?, ?) ON CONFLICT DO NOTHING',
  )
  // Kysely's transaction holds the one connection: the prepared statements run inside it.
  return (uploadId, hosts) =>
    db.kysely.transaction().execute(() => {
      let added = 0
      for (const host of hosts) added += insert.run(uploadId, host).changes
      return Promise.resolve(added)
    })
}

function postgresAddHosts(db: Kysely<Database>): AddHosts {
  const sql =
    'INSERT INTO safety_list_hosts (upload_id, host) SELECT $1, h FROM unnest($2::text[]) AS r(h) ON CONFLICT DO NOTHING'
  return async (uploadId, hosts) => {
    const r = await db.executeQuery(CompiledQuery.raw(sql, [uploadId, [...hosts]]))
    return Number(r.numAffectedRows ?? 0)
  }
}

export function createSafetyStore(engine: Db) {
  const db = engine.kysely
  return {
    addHosts: engine.dialect === 'sqlite' ? sqliteAddHosts(engine) : postgresAddHosts(db),

    /** The organization's ready lists, by name. */
    async lists(organizationId: string): Promise<UploadRecord[]> {
      const rows = await db
        .selectFrom('safety_lists')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('state', '=', sql.lit('ready'))
        .orderBy('name')
        .execute()
      return rows.map(toRecord)
    },

    /** A ready list by its public id. */
    async byListId(organizationId: string, listId: string): Promise<UploadRecord | undefined> {
      const r = await db
        .selectFrom('safety_lists')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('list_id', '=', listId)
        .where('state', '=', sql.lit('ready'))
        .executeTakeFirst()
      return r && toRecord(r)
    },

    async insertUpload(u: UploadRecord): Promise<void> {
      await db
        .insertInto('safety_lists')
        .values({
          id: u.id,
          list_id: u.listId,
          organization_id: u.organizationId,
          name: u.name,
          format: u.format,
          entries: u.entries,
          skipped: u.skipped,
          state: u.state,
          created_at: u.createdAt,
          updated_at: u.updatedAt,
        })
        .execute()
    },

    /**
     * Makes a loaded upload the list's ready one, in one transaction: the ready upload of the same
     * name (if any) turns 'deleting' and hands over its public id and creation time. Returns the
     * upload as stored.
     */
    async publish(
      upload: UploadRecord,
      counts: { entries: number; skipped: number; format: SafetyFormat },
      t: number,
    ): Promise<UploadRecord> {
      return db.transaction().execute(async (trx) => {
        const old = await trx
          .selectFrom('safety_lists')
          .selectAll()
          .where('organization_id', '=', upload.organizationId)
          .where('name', '=', upload.name)
          .where('state', '=', sql.lit('ready'))
          .executeTakeFirst()
        if (old)
          await trx
            .updateTable('safety_lists')
            .set({ state: 'deleting', updated_at: t })
            .where('id', '=', old.id)
            .execute()
        const listId = old?.list_id ?? upload.listId
        const createdAt = old ? Number(old.created_at) : upload.createdAt
        await trx
          .updateTable('safety_lists')
          .set({
            state: 'ready',
            list_id: listId,
            created_at: createdAt,
            entries: counts.entries,
            skipped: counts.skipped,
            format: counts.format,
            updated_at: t,
          })
          .where('id', '=', upload.id)
          .execute()
        return { ...upload, ...counts, listId, createdAt, state: 'ready' as const, updatedAt: t }
      })
    },

    /** Marks an upload for removal (its hosts stop matching at once). */
    async markDeleting(uploadId: string, t: number): Promise<void> {
      await db
        .updateTable('safety_lists')
        .set({ state: 'deleting', updated_at: t })
        .where('id', '=', uploadId)
        .execute()
    },

    /** Deletes up to `limit` hosts of an upload; returns how many. */
    async deleteHosts(uploadId: string, limit: number): Promise<number> {
      const r = await db
        .deleteFrom('safety_list_hosts')
        .where('upload_id', '=', uploadId)
        .where('host', 'in', (eb) =>
          eb.selectFrom('safety_list_hosts').select('host').where('upload_id', '=', uploadId).limit(limit),
        )
        .executeTakeFirst()
      return Number(r.numDeletedRows)
    },

    async deleteUpload(uploadId: string): Promise<void> {
      await db.deleteFrom('safety_lists').where('id', '=', uploadId).execute()
    },

    /** Uploads to remove: those marked 'deleting', and loads abandoned before `staleBefore`. */
    async leftovers(staleBefore: number): Promise<string[]> {
      const rows = await db
        .selectFrom('safety_lists')
        .select('id')
        .where((eb) =>
          eb.or([
            eb('state', '=', sql.lit('deleting')),
            eb.and([eb('state', '=', sql.lit('loading')), eb('updated_at', '<', staleBefore)]),
          ]),
        )
        .execute()
      return rows.map((r) => r.id)
    },

    /** Whether the organization has a ready list. */
    async hasLists(organizationId: string): Promise<boolean> {
      const r = await db
        .selectFrom('safety_lists')
        .select('id')
        .where('organization_id', '=', organizationId)
        .where('state', '=', sql.lit('ready'))
        .limit(1)
        .executeTakeFirst()
      return r !== undefined
    },

    /**
     * The listed hosts among `hosts` on the ready lists of `organizationIds`: a probe of the host
     * index per host.
     */
    async matches(organizationIds: readonly string[], hosts: readonly string[]): Promise<HostMatch[]> {
      if (organizationIds.length === 0 || hosts.length === 0) return []
      const out: HostMatch[] = []
      for (let i = 0; i < hosts.length; i += LOOKUP_HOSTS) {
        const rows = await db
          .selectFrom('safety_list_hosts as h')
          .innerJoin('safety_lists as l', 'l.id', 'h.upload_id')
          .select(['l.organization_id', 'l.name', 'h.host'])
          .where('h.host', 'in', hosts.slice(i, i + LOOKUP_HOSTS))
          .where('l.state', '=', sql.lit('ready'))
          .where('l.organization_id', 'in', organizationIds)
          .orderBy('l.name')
          .execute()
        for (const r of rows) out.push({ organizationId: r.organization_id, host: r.host, list: r.name })
      }
      return out
    },
  }
}
export type SafetyStore = ReturnType<typeof createSafetyStore>
