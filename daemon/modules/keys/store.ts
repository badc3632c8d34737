import { PostgresAdapter, sql, type Kysely, type Selectable } from 'kysely'
import type { ApiKeyActivityTable, ApiKeysTable, Database } from '../../db/schema.js'
import { newestFirstPage } from '../../db/paginate.js'
import { atomically } from '../../db/unit-of-work.js'

/** An API key as the service sees it (times in Unix ms). */
export interface KeyRecord {
  id: string
  organizationId: string
  /** The team member the key belongs to (its role bounds the key at every request). */
  memberId: string
  name: string
  description: string | null
  prefix: string
  environment: 'live' | 'test'
  keyHash: string
  lastFour: string
  permissions: string[]
  requestLimit: number
  timePeriod: 'minute' | 'hour' | 'day'
  allowedIps: string[]
  allowedOrigins: string[]
  expiresAt: number | null
  status: 'active' | 'inactive' | 'revoked' | 'expired'
  revokedAt: number | null
  createdAt: number
  updatedAt: number
  lastUsedAt: number | null
  lastUsedIp: string | null
  totalRequests: number
  usageDay: string | null
  requestsToday: number
  usageMonth: string | null
  requestsThisMonth: number
}

export interface ActivityRecord {
  id: string
  keyId: string
  organizationId: string
  ts: number
  endpoint: string
  method: string
  statusCode: number
  responseTimeMs: number
  ip: string | null
  userAgent: string | null
  referrer: string | null
  country: string | null
  error: string | null
}

/** Usage of one key within one UTC day, applied in time order. */
export interface UsageDelta {
  keyId: string
  day: string
  month: string
  count: number
  lastUsedAt: number
  lastUsedIp: string | null
}

const toRecord = (r: Selectable<ApiKeysTable>): KeyRecord => ({
  id: r.id,
  organizationId: r.organization_id,
  memberId: r.member_id ?? '',
  name: r.name,
  description: r.description,
  prefix: r.prefix,
  environment: r.environment as KeyRecord['environment'],
  keyHash: r.key_hash,
  lastFour: r.last_four,
  permissions: JSON.parse(r.permissions) as string[],
  requestLimit: r.request_limit,
  timePeriod: r.time_period as KeyRecord['timePeriod'],
  allowedIps: JSON.parse(r.allowed_ips) as string[],
  allowedOrigins: JSON.parse(r.allowed_origins) as string[],
  expiresAt: r.expires_at,
  status: r.status as KeyRecord['status'],
  revokedAt: r.revoked_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  lastUsedAt: r.last_used_at,
  lastUsedIp: r.last_used_ip,
  totalRequests: Number(r.total_requests),
  usageDay: r.usage_day,
  requestsToday: Number(r.requests_today),
  usageMonth: r.usage_month,
  requestsThisMonth: Number(r.requests_this_month),
})

export type KeyPatch = Partial<
  Pick<
    KeyRecord,
    | 'name'
    | 'description'
    | 'keyHash'
    | 'lastFour'
    | 'permissions'
    | 'requestLimit'
    | 'timePeriod'
    | 'allowedIps'
    | 'allowedOrigins'
    | 'expiresAt'
    | 'status'
    | 'revokedAt'
  >
> & { updatedAt: number }

const toActivity = (r: Selectable<ApiKeyActivityTable>): ActivityRecord => ({
  id: r.id,
  keyId: r.key_id,
  organizationId: r.organization_id,
  ts: r.ts,
  endpoint: r.endpoint,
  method: r.method,
  statusCode: r.status_code,
  responseTimeMs: r.response_time_ms,
  ip: r.ip,
  userAgent: r.user_agent,
  referrer: r.referrer,
  country: r.country,
  error: r.error,
})

/** A list filter: `status` as the API filters it (expiry applied at `now`), `search` in name and description. */
export interface KeyListQuery {
  status?: string | undefined
  search?: string | undefined
  /** Only this member's keys. */
  memberId?: string | undefined
  now: number
  limit: number
  offset: number
}

/**
 * Request text as the activity log keeps it: NUL (which an error message can echo from the
 * request, such as a query parameter's name) becomes U+FFFD, because PostgreSQL's text cannot hold
 * it and one such row failed the whole usage flush there (every key's activity and counters).
 */
function storable<T extends string | null>(text: T): T {
  return (text === null ? text : text.replaceAll('\u0000', '\ufffd')) as T
}

/** The API key tables (api_keys, api_key_activity): what the key service may ask of them. */
export interface KeyQueries {
  insert(k: KeyRecord): Promise<void>
  byHash(hash: string): Promise<KeyRecord | undefined>
  byId(organizationId: string, id: string): Promise<KeyRecord | undefined>
  /** One page newest first and the total matching the filter (`status` as the API filters it). */
  list(organizationId: string, q: KeyListQuery): Promise<{ rows: KeyRecord[]; total: number }>
  /** Keys that count against the plan limit: every key not revoked and not expired. */
  countUsable(organizationId: string, now: number): Promise<number>
  /**
   * Inside a transaction: waits until no other transaction holds the organization's key lock, then
   * holds it until commit, so that a check of the organization's keys and the write it allows run
   * one at a time. PostgreSQL: an advisory lock per organization. SQLite: nothing to do, as the
   * one connection runs one transaction at a time.
   */
  lockOrganization(organizationId: string): Promise<void>
  /** Keys of the organization that authenticate at `now`: active and not past their expiry. */
  activeKeys(organizationId: string, now: number): Promise<KeyRecord[]>
  update(id: string, p: KeyPatch): Promise<void>
  /** Deletes the key and its activity. */
  delete(id: string): Promise<void>
  /** Revokes every key of a member not revoked yet; returns the keys it revoked. */
  revokeMember(organizationId: string, memberId: string, now: number): Promise<KeyRecord[]>
  /** Marks active/inactive keys whose expiry has passed as expired; returns how many. */
  expireDue(now: number): Promise<number>
  /** Writes buffered activity rows and usage counters atomically (not inside `transaction`). */
  applyUsage(activity: ActivityRecord[], usage: UsageDelta[]): Promise<void>
  /** One page of a key's activity, newest first, and its total. */
  activity(keyId: string, limit: number, offset: number): Promise<{ rows: ActivityRecord[]; total: number }>
  /** Deletes activity older than `before`; returns how many rows. */
  pruneActivity(before: number): Promise<number>
}

/** The key store port: its queries, and a unit of work running several of them atomically. */
export interface KeyStore extends KeyQueries {
  /**
   * Runs `fn` with the queries bound to one transaction. Inside, use only those: on SQLite the
   * transaction holds the one connection, so a query through the outer store would wait forever.
   */
  transaction<T>(fn: (store: KeyQueries) => Promise<T>): Promise<T>
}

/** The class (first key) of the organizations' key locks: "keys". */
const ORGANIZATION_KEYS_LOCK = 0x6b65_7973

function queries(db: Kysely<Database>): KeyQueries {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter
  return {
    async insert(k: KeyRecord): Promise<void> {
      await db
        .insertInto('api_keys')
        .values({
          id: k.id,
          organization_id: k.organizationId,
          member_id: k.memberId,
          name: k.name,
          description: k.description,
          prefix: k.prefix,
          environment: k.environment,
          key_hash: k.keyHash,
          last_four: k.lastFour,
          permissions: JSON.stringify(k.permissions),
          request_limit: k.requestLimit,
          time_period: k.timePeriod,
          allowed_ips: JSON.stringify(k.allowedIps),
          allowed_origins: JSON.stringify(k.allowedOrigins),
          expires_at: k.expiresAt,
          status: k.status,
          revoked_at: k.revokedAt,
          created_at: k.createdAt,
          updated_at: k.updatedAt,
          last_used_at: null,
          last_used_ip: null,
          usage_day: null,
          usage_month: null,
        })
        .execute()
    },

    async lockOrganization(organizationId: string): Promise<void> {
      if (!db.isTransaction) throw new Error('lockOrganization: not in a transaction')
      if (postgres)
        await sql`SELECT pg_advisory_xact_lock(${ORGANIZATION_KEYS_LOCK}, hashtext(${organizationId}))`.execute(
          db,
        )
    },

    async byHash(hash: string): Promise<KeyRecord | undefined> {
      const r = await db.selectFrom('api_keys').selectAll().where('key_hash', '=', hash).executeTakeFirst()
      return r && toRecord(r)
    },

    async byId(organizationId: string, id: string): Promise<KeyRecord | undefined> {
      const r = await db
        .selectFrom('api_keys')
        .selectAll()
        .where('id', '=', id)
        .where('organization_id', '=', organizationId)
        .executeTakeFirst()
      return r && toRecord(r)
    },

    async list(organizationId: string, q: KeyListQuery): Promise<{ rows: KeyRecord[]; total: number }> {
      let base = db.selectFrom('api_keys').where('organization_id', '=', organizationId)
      if (q.status === 'expired') {
        base = base.where((eb) =>
          eb.or([
            eb('status', '=', 'expired'),
            eb.and([eb('status', 'in', ['active', 'inactive']), eb('expires_at', '<=', q.now)]),
          ]),
        )
      } else if (q.status === 'active' || q.status === 'inactive') {
        base = base
          .where('status', '=', q.status)
          .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', q.now)]))
      } else if (q.status) {
        base = base.where('status', '=', q.status)
      }
      if (q.memberId !== undefined) base = base.where('member_id', '=', q.memberId)
      if (q.search) {
        const pattern = `%${q.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`
        base = base.where((eb) =>
          eb.or([
            sql<boolean>`lower(name) LIKE ${pattern} ESCAPE '\\'`,
            sql<boolean>`lower(coalesce(description, '')) LIKE ${pattern} ESCAPE '\\'`,
          ]),
        )
      }
      const { rows, total } = await newestFirstPage(base, q)
      return { rows: rows.map(toRecord), total }
    },

    /** Keys that count against the plan limit: every key not revoked and not expired. */
    async countUsable(organizationId: string, now: number): Promise<number> {
      const r = await db
        .selectFrom('api_keys')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('organization_id', '=', organizationId)
        .where('status', 'in', ['active', 'inactive'])
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
        .executeTakeFirstOrThrow()
      return Number(r.n)
    },

    /** Keys of the organization that authenticate at `now`: active and not past their expiry. */
    async activeKeys(organizationId: string, now: number): Promise<KeyRecord[]> {
      const rows = await db
        .selectFrom('api_keys')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('status', '=', 'active')
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
        .execute()
      return rows.map(toRecord)
    },

    async update(id: string, p: KeyPatch): Promise<void> {
      await db
        .updateTable('api_keys')
        .set({
          ...(p.name !== undefined && { name: p.name }),
          ...(p.description !== undefined && { description: p.description }),
          ...(p.keyHash !== undefined && { key_hash: p.keyHash }),
          ...(p.lastFour !== undefined && { last_four: p.lastFour }),
          ...(p.permissions !== undefined && { permissions: JSON.stringify(p.permissions) }),
          ...(p.requestLimit !== undefined && { request_limit: p.requestLimit }),
          ...(p.timePeriod !== undefined && { time_period: p.timePeriod }),
          ...(p.allowedIps !== undefined && { allowed_ips: JSON.stringify(p.allowedIps) }),
          ...(p.allowedOrigins !== undefined && { allowed_origins: JSON.stringify(p.allowedOrigins) }),
          ...(p.expiresAt !== undefined && { expires_at: p.expiresAt }),
          ...(p.status !== undefined && { status: p.status }),
          ...(p.revokedAt !== undefined && { revoked_at: p.revokedAt }),
          updated_at: p.updatedAt,
        })
        .where('id', '=', id)
        .execute()
    },

    /** Deletes the key and (by cascade, and explicitly for databases without it) its activity. */
    async delete(id: string): Promise<void> {
      await atomically(db, async (trx) => {
        await trx.deleteFrom('api_key_activity').where('key_id', '=', id).execute()
        await trx.deleteFrom('api_keys').where('id', '=', id).execute()
      })
    },

    async revokeMember(organizationId: string, memberId: string, now: number): Promise<KeyRecord[]> {
      const rows = await db
        .updateTable('api_keys')
        .set({ status: 'revoked', revoked_at: now, updated_at: now })
        .where('organization_id', '=', organizationId)
        .where('member_id', '=', memberId)
        .where('status', '!=', 'revoked')
        .returningAll()
        .execute()
      return rows.map(toRecord)
    },

    /** Marks active/inactive keys whose expiry has passed as expired; returns how many. */
    async expireDue(now: number): Promise<number> {
      const r = await db
        .updateTable('api_keys')
        .set({ status: 'expired', updated_at: now })
        .where('status', 'in', ['active', 'inactive'])
        .where('expires_at', '<=', now)
        .executeTakeFirst()
      return Number(r.numUpdatedRows)
    },

    /** Writes buffered activity rows and usage counters in one transaction. */
    async applyUsage(activity: ActivityRecord[], usage: UsageDelta[]): Promise<void> {
      if (activity.length === 0 && usage.length === 0) return
      // Rows in key id order: every process locks them in one order, so two flushes never deadlock.
      const byKey = [...usage].sort((a, b) => (a.keyId < b.keyId ? -1 : a.keyId > b.keyId ? 1 : 0))
      await db.transaction().execute(async (trx) => {
        for (const u of byKey) {
          await trx
            .updateTable('api_keys')
            .set({
              total_requests: sql`total_requests + ${u.count}`,
              requests_today: sql`CASE WHEN usage_day = ${u.day} THEN requests_today + ${u.count} ELSE ${u.count} END`,
              usage_day: u.day,
              requests_this_month: sql`CASE WHEN usage_month = ${u.month} THEN requests_this_month + ${u.count} ELSE ${u.count} END`,
              usage_month: u.month,
              last_used_at: u.lastUsedAt,
              last_used_ip: u.lastUsedIp,
            })
            .where('id', '=', u.keyId)
            .execute()
        }
        // Rows of keys deleted meanwhile are dropped rather than failing the batch.
        const ids = [...new Set(activity.map((a) => a.keyId))]
        const existing = ids.length
          ? new Set(
              (await trx.selectFrom('api_keys').select('id').where('id', 'in', ids).execute()).map(
                (r) => r.id,
              ),
            )
          : new Set<string>()
        const rows = activity.filter((a) => existing.has(a.keyId))
        for (let i = 0; i < rows.length; i += 200) {
          await trx
            .insertInto('api_key_activity')
            .values(
              rows.slice(i, i + 200).map((a) => ({
                id: a.id,
                key_id: a.keyId,
                organization_id: a.organizationId,
                ts: a.ts,
                endpoint: storable(a.endpoint),
                method: a.method,
                status_code: a.statusCode,
                response_time_ms: a.responseTimeMs,
                ip: a.ip,
                user_agent: storable(a.userAgent),
                referrer: storable(a.referrer),
                country: a.country,
                error: storable(a.error),
              })),
            )
            .execute()
        }
      })
    },

    async activity(
      keyId: string,
      limit: number,
      offset: number,
    ): Promise<{ rows: ActivityRecord[]; total: number }> {
      const base = db.selectFrom('api_key_activity').where('key_id', '=', keyId)
      const [rows, count] = await Promise.all([
        base.selectAll().orderBy('ts', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
        base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ])
      return { rows: rows.map(toActivity), total: Number(count.n) }
    },

    async pruneActivity(before: number): Promise<number> {
      const r = await db.deleteFrom('api_key_activity').where('ts', '<', before).executeTakeFirst()
      return Number(r.numDeletedRows)
    },
  }
}
/** The SQLite (Kysely) implementation. */
export function createKeyStore(db: Kysely<Database>): KeyStore {
  return {
    ...queries(db),
    transaction<T>(fn: (store: KeyQueries) => Promise<T>): Promise<T> {
      return db.transaction().execute((trx) => fn(queries(trx)))
    },
  }
}
