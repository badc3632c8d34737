import { CompiledQuery, type Kysely } from 'kysely'
import type { Database } from '../../db/schema.js'
import { addCountersManySql, insertManySql, type PgColumn } from '../../db/multi-row.js'
import { kyselyOf, postgresUnit, type UnitOfWork } from '../../db/unit-of-work.js'
import {
  clickReads,
  clickValues,
  visitorTotals,
  monthRollup,
  type ClickBatch,
  type ClickStore,
} from './store.js'

const TEXT = 'text'
const BIGINT = 'bigint'
const FLOAT = 'double precision'

const CLICK_COLUMNS: PgColumn[] = [
  ['link_id', TEXT],
  ['organization_id', TEXT],
  ['ts', BIGINT],
  ['visitor_hash', TEXT],
  ['is_bot', 'integer'],
  ['bot_reason', TEXT],
  ['is_qr', 'integer'],
  ['country', TEXT],
  ['region', TEXT],
  ['city', TEXT],
  ['device', TEXT],
  ['browser', TEXT],
  ['os', TEXT],
  ['referrer_domain', TEXT],
  ['utm_source', TEXT],
  ['utm_medium', TEXT],
  ['utm_campaign', TEXT],
  ['response_ms', FLOAT],
]

// One statement per table and flush, whatever its size (daemon/db/counters.ts).
const INSERT_CLICKS = insertManySql('clicks', CLICK_COLUMNS)
const UPSERT_HOURS = addCountersManySql(
  'link_click_hours',
  [
    ['link_id', TEXT],
    ['hour_start', BIGINT],
  ],
  [
    ['clicks', BIGINT],
    ['bots', BIGINT],
    ['qr_scans', BIGINT],
    ['response_ms_sum', FLOAT],
  ],
)
const UPSERT_ORG_DAYS = addCountersManySql(
  'org_click_days',
  [
    ['organization_id', TEXT],
    ['day_start', BIGINT],
  ],
  [
    ['clicks', BIGINT],
    ['bots', BIGINT],
    ['qr_scans', BIGINT],
  ],
)
const dimKeys = (period: string): PgColumn[] => [
  ['link_id', TEXT],
  [period, BIGINT],
  ['dim', TEXT],
  ['value', TEXT],
]
const UPSERT_DIMS = addCountersManySql('link_click_dims', dimKeys('day_start'), [['clicks', BIGINT]])
const UPSERT_DIMS_MONTH = addCountersManySql('link_click_dims_month', dimKeys('month_start'), [
  ['clicks', BIGINT],
])
// RETURNING: each visitor's clicks that day after this flush (1 = a new visitor), with its key.
const UPSERT_VISITORS = `${addCountersManySql(
  'link_day_visitors',
  [
    ['link_id', TEXT],
    ['day_start', BIGINT],
    ['visitor_hash', TEXT],
  ],
  [['clicks', BIGINT]],
)} RETURNING link_id, day_start, visitor_hash, clicks`
const UPSERT_DAY_TOTALS = addCountersManySql(
  'link_day_totals',
  [
    ['link_id', TEXT],
    ['day_start', BIGINT],
  ],
  [
    ['visitors', BIGINT],
    ['single_click_visitors', BIGINT],
  ],
)

type Key = ReadonlyArray<string | number>

/**
 * Sorts rows by their key, so that every process takes the row locks of a flush in one order:
 * two flushes counting the same rows then wait for each other instead of deadlocking.
 */
function sortedByKey<T>(rows: readonly T[], key: (row: T) => Key): T[] {
  const compare = (a: Key, b: Key) => {
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return (a[i] as string) < (b[i] as string) ? -1 : 1
    return 0
  }
  return [...rows].sort((a, b) => compare(key(a), key(b)))
}

/** Runs a multi-row statement with rows given as tuples: one array parameter per column. */
async function many<R>(
  trx: Kysely<Database>,
  text: string,
  rows: ReadonlyArray<readonly unknown[]>,
): Promise<R[]> {
  if (rows.length === 0) return []
  const columns = (rows[0] ?? []).map((_, i) => rows.map((row) => row[i]))
  const result = await trx.executeQuery<R>(CompiledQuery.raw(text, columns))
  return result.rows
}

/**
 * The PostgreSQL implementation: the same rows and counters as the SQLite store, each table
 * written by one multi-row statement in the flush's transaction (which links.addClicks joins),
 * counters added with `ON CONFLICT … DO UPDATE SET x = table.x + excluded.x`, so that any number
 * of linkd processes recording clicks on the same link keep exact totals. Reads are shared.
 */
export function createPostgresClickStore(db: Kysely<Database>): ClickStore {
  async function apply(trx: Kysely<Database>, batch: ClickBatch): Promise<void> {
    await many(trx, INSERT_CLICKS, batch.rows.map(clickValues))
    const hours = sortedByKey(batch.hours, (h) => [h.linkId, h.hourStart])
    await many(
      trx,
      UPSERT_HOURS,
      hours.map((h) => [h.linkId, h.hourStart, h.clicks, h.bots, h.qrScans, h.responseMsSum]),
    )
    const orgDays = sortedByKey(batch.orgDays, (o) => [o.organizationId, o.dayStart])
    await many(
      trx,
      UPSERT_ORG_DAYS,
      orgDays.map((o) => [o.organizationId, o.dayStart, o.clicks, o.bots, o.qrScans]),
    )
    const dims = sortedByKey(batch.dims, (d) => [d.linkId, d.dayStart, d.dim, d.value])
    await many(
      trx,
      UPSERT_DIMS,
      dims.map((d) => [d.linkId, d.dayStart, d.dim, d.value, d.clicks]),
    )
    const months = sortedByKey(monthRollup(batch.dims), (m) => [m.linkId, m.monthStart, m.dim, m.value])
    await many(
      trx,
      UPSERT_DIMS_MONTH,
      months.map((m) => [m.linkId, m.monthStart, m.dim, m.value, m.clicks]),
    )
    const visitors = sortedByKey(batch.visitors, (v) => [v.linkId, v.dayStart, v.visitorHash])
    const returned = await many<{ link_id: string; day_start: number; visitor_hash: string; clicks: number }>(
      trx,
      UPSERT_VISITORS,
      visitors.map((v) => [v.linkId, v.dayStart, v.visitorHash, v.clicks]),
    )
    const afterFlush = new Map(
      returned.map((r) => [`${r.link_id}\n${r.day_start}\n${r.visitor_hash}`, r.clicks]),
    )
    const after = visitors.map((v) => afterFlush.get(`${v.linkId}\n${v.dayStart}\n${v.visitorHash}`) ?? 0)
    const totals = sortedByKey(visitorTotals(visitors, after), (t) => [t.linkId, t.dayStart])
    await many(
      trx,
      UPSERT_DAY_TOTALS,
      totals.map((t) => [t.linkId, t.dayStart, t.visitors, t.singleClickVisitors]),
    )
  }

  return {
    /** One transaction for a whole flush, lent as a unit of work to the links store (links.clicks). */
    transaction<T>(fn: (unit: UnitOfWork) => Promise<T>): Promise<T> {
      return db.transaction().execute((trx) => fn(postgresUnit(trx)))
    },
    apply(batch: ClickBatch, unit: UnitOfWork): Promise<void> {
      return apply(kyselyOf(unit), batch)
    },
    ...clickReads(db),
  }
}
