import { sql, type Kysely } from 'kysely'
import type { Db } from './open.js'
import type { Database } from './schema.js'

/**
 * Whole tables, for `linkd migrate-data`: every table of daemon/db/schema.ts in foreign-key order
 * (a row's parent is copied before it), each with the primary key its rows are read in order of,
 * a batch at a time (keyset, so that a table of any size streams without being held in memory).
 */
type KeyOf<T extends keyof Database> = readonly (keyof Database[T] & string)[]
type Keys = { [T in Exclude<keyof Database, 'schema_migrations' | 'rate_limit_counters'>]: KeyOf<T> | 'row' }

/**
 * The copy order and each table's key. `row`: a table without a primary key (clicks), read in the
 * order of the engine's own row address (SQLite's rowid, PostgreSQL's ctid), stable while the
 * copy holds its read snapshot. schema_migrations is not copied: each side is migrated by this
 * build, and the copy checks that both hold the same versions. Nor is rate_limit_counters: the
 * current windows' counts of the shared quotas, forgiven by a move.
 */
export const TABLE_KEYS = {
  organizations: ['id'],
  members: ['id'],
  team_invitations: ['id'],
  audit_log: ['id'],
  api_keys: ['id'],
  api_key_activity: ['id'],
  idempotency_records: ['owner', 'idem_key'],
  job_runs: ['name'],
  links: ['id'],
  link_tags: ['link_id', 'tag'],
  qr_codes: ['id'],
  clicks: 'row',
  link_click_hours: ['link_id', 'hour_start'],
  link_click_dims: ['link_id', 'day_start', 'dim', 'value'],
  link_click_dims_month: ['link_id', 'month_start', 'dim', 'value'],
  link_day_visitors: ['link_id', 'day_start', 'visitor_hash'],
  link_day_totals: ['link_id', 'day_start'],
  org_click_days: ['organization_id', 'day_start'],
  games: ['id'],
  game_batches: ['game_id', 'batch_id'],
  game_events: ['game_id', 'event_id'],
  game_sessions: ['game_id', 'id'],
  game_players: ['game_id', 'player_id'],
  game_player_days: ['game_id', 'player_id', 'day'],
  game_daily: ['game_id', 'day'],
  game_daily_dims: ['game_id', 'day', 'dim', 'value'],
  game_day_gaps: ['game_id', 'kind', 'day', 'prev_day'],
  game_cohorts: ['game_id', 'install_day', 'day_offset'],
  game_cohort_dims: ['game_id', 'dim', 'install_day', 'day_offset', 'value'],
  game_cohort_events: ['game_id', 'event_type', 'dim', 'install_day', 'day_offset', 'value'],
  game_acquisition_daily: ['game_id', 'day', 'dim', 'value'],
  game_dim_paying_gaps: ['game_id', 'dim', 'day', 'value', 'prev_day'],
  game_player_totals: ['game_id'],
  gdpr_deletions: ['id'],
  install_click_claims: ['organization_id', 'click_id'],
  custom_domains: ['id'],
  acme_accounts: ['directory_url'],
  acme_challenges: ['token'],
  webhooks: ['id'],
  webhook_deliveries: ['id'],
  fraud_rules: ['id'],
  fraud_blocklist: ['id'],
  fraud_games: ['game_id'],
  fraud_events: ['id'],
  fraud_daily: ['game_id', 'day'],
  fraud_detector_state: ['game_id', 'kind', 'entry_key'],
  skan_campaigns: ['id'],
  skan_postbacks: ['id'],
  safety_lists: ['id'],
  safety_list_hosts: ['upload_id', 'host'],
  export_destinations: ['id'],
  master_key_fingerprint: ['id'],
} as const satisfies Keys

export type CopiedTable = keyof typeof TABLE_KEYS

/** Every table the copy moves, parents first (the object's key order above). */
export const COPIED_TABLES = Object.keys(TABLE_KEYS) as CopiedTable[]

type Row = Record<string, unknown>

/** The rows of one table. */
export async function countRows(kysely: Kysely<Database>, table: CopiedTable): Promise<number> {
  const r = await kysely
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(r.n)
}

/** Whether a table holds at least one row. */
export async function hasRows(kysely: Kysely<Database>, table: CopiedTable): Promise<boolean> {
  const r = await kysely
    .selectFrom(table)
    .select(sql<number>`1`.as('one'))
    .limit(1)
    .executeTakeFirst()
  return r !== undefined
}

/** The versions in schema_migrations, ascending. */
export async function appliedVersions(kysely: Kysely<Database>): Promise<number[]> {
  const rows = await kysely.selectFrom('schema_migrations').select('version').orderBy('version').execute()
  return rows.map((r) => Number(r.version))
}

/** The row address of a table without a primary key, per engine (see TABLE_KEYS). */
const ROW_ADDRESS = { sqlite: 'rowid', postgres: 'ctid' } as const
const ADDRESS_ALIAS = 'linkd_row_address'

/**
 * Reads a table in key order, `size` rows at a time: each batch starts after the last key of the
 * one before (WHERE (k1, k2) > (…) ORDER BY k1, k2 LIMIT size), so the source is never scanned
 * from the start again and no more than one batch is in memory.
 */
export async function* readBatches(
  kysely: Kysely<Database>,
  dialect: Db['dialect'],
  table: CopiedTable,
  size: number,
): AsyncGenerator<Row[]> {
  const key = TABLE_KEYS[table]
  const address = ROW_ADDRESS[dialect]
  const columns = key === 'row' ? [ADDRESS_ALIAS] : (key as readonly string[])
  let after: unknown[] | undefined
  for (;;) {
    let query = kysely.selectFrom(table).selectAll()
    if (key === 'row') query = query.select(sql.raw(address).as(ADDRESS_ALIAS))
    const keyRefs = key === 'row' ? [sql.raw(address)] : columns.map((c) => sql.ref(c))
    if (after) {
      const last = after
      const values =
        key === 'row' && dialect === 'postgres' ? [sql`${last[0]}::tid`] : last.map((v) => sql`${v}`)
      query = query.where(sql<boolean>`(${sql.join(keyRefs)}) > (${sql.join(values)})`)
    }
    for (const ref of keyRefs) query = query.orderBy(ref)
    const rows = (await query.limit(size).execute()) as Row[]
    if (!rows.length) return
    const lastRow = rows[rows.length - 1] as Row
    after = columns.map((c) => lastRow[c])
    if (key === 'row') for (const r of rows) delete r[ADDRESS_ALIAS]
    yield rows
    if (rows.length < size) return
  }
}

/** Bound parameters per INSERT: below SQLite's 32,766 and PostgreSQL's 65,535. */
const PARAMETERS_PER_INSERT = 30_000

/** Inserts rows as they were read (sealed values, hashes and ids unchanged), in multi-row INSERTs. */
export async function insertRows(kysely: Kysely<Database>, table: CopiedTable, rows: Row[]): Promise<void> {
  if (!rows.length) return
  const columns = Object.keys(rows[0] as Row).length || 1
  const perInsert = Math.max(1, Math.floor(PARAMETERS_PER_INSERT / columns))
  for (let i = 0; i < rows.length; i += perInsert)
    await kysely
      .insertInto(table)
      .values(rows.slice(i, i + perInsert) as never)
      .execute()
}
