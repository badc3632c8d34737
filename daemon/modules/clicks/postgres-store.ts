import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.js'
import { addCounterRows, insertManyRows, type Column, type PgType } from '../../db/postgres-rows.js'
import { kyselyOf, postgresUnit, type UnitOfWork } from '../../db/unit-of-work.js'
import type { ArrayRows } from '../../db/array-rows.js'
import { clickReads, type ClickStore } from './store.js'
import {
  visitorTotals,
  variantVisitorDims,
  monthRollup,
  type ClickBatch,
  type ClickRow,
  type DayTotalDelta,
  type DimDelta,
  type HourDelta,
  type MonthDelta,
  type OrgDayDelta,
  type VisitorDelta,
} from './batch.js'

/** A column whose value is a row's field of the same name in camelCase. */
const field = <T>(name: string, type: PgType, key: keyof T): Column<T> => [name, type, (row: T) => row[key]]

const CLICK_COLUMNS: Column<ClickRow>[] = [
  field('link_id', 'text', 'linkId'),
  field('organization_id', 'text', 'organizationId'),
  field('ts', 'int8', 'ts'),
  field('visitor_hash', 'text', 'visitorHash'),
  ['is_bot', 'int8', (r) => (r.isBot ? 1 : 0)],
  field('bot_reason', 'text', 'botReason'),
  ['is_qr', 'int8', (r) => (r.isQr ? 1 : 0)],
  field('country', 'text', 'country'),
  field('region', 'text', 'region'),
  field('city', 'text', 'city'),
  field('device', 'text', 'device'),
  field('browser', 'text', 'browser'),
  field('os', 'text', 'os'),
  field('referrer_domain', 'text', 'referrerDomain'),
  field('utm_source', 'text', 'utmSource'),
  field('utm_medium', 'text', 'utmMedium'),
  field('utm_campaign', 'text', 'utmCampaign'),
  field('response_ms', 'float8', 'responseMs'),
  field('click_id', 'text', 'clickId'),
  field('variant', 'text', 'variant'),
  field('qr_code_id', 'text', 'qrCodeId'),
]

type Dim = DimDelta | MonthDelta
const dimKeys = (period: 'day_start' | 'month_start'): Column<Dim>[] => [
  field('link_id', 'text', 'linkId'),
  [period, 'int8', (d) => ('dayStart' in d ? d.dayStart : d.monthStart)],
  field('dim', 'text', 'dim'),
  field('value', 'text', 'value'),
]
const DIM_CLICKS = [field<Dim>('clicks', 'int8', 'clicks')]

type VisitorAfter = { link_id: string; day_start: number; visitor_hash: string; clicks: number }

// One statement per table and flush, whatever its size; counters add up (daemon/db/counters.ts).
const statements = {
  insertClicks: insertManyRows('clicks', CLICK_COLUMNS),
  hours: addCounterRows<HourDelta>(
    'link_click_hours',
    [field('link_id', 'text', 'linkId'), field('hour_start', 'int8', 'hourStart')],
    [
      field('clicks', 'int8', 'clicks'),
      field('bots', 'int8', 'bots'),
      field('qr_scans', 'int8', 'qrScans'),
      field('response_ms_sum', 'float8', 'responseMsSum'),
    ],
  ),
  orgDays: addCounterRows<OrgDayDelta>(
    'org_click_days',
    [field('organization_id', 'text', 'organizationId'), field('day_start', 'int8', 'dayStart')],
    [field('clicks', 'int8', 'clicks'), field('bots', 'int8', 'bots'), field('qr_scans', 'int8', 'qrScans')],
  ),
  dims: addCounterRows<Dim>('link_click_dims', dimKeys('day_start'), DIM_CLICKS),
  dimsMonth: addCounterRows<Dim>('link_click_dims_month', dimKeys('month_start'), DIM_CLICKS),
  // RETURNING: each visitor's clicks that day after this flush (1 = a new visitor), with its key.
  visitors: addCounterRows<VisitorDelta, VisitorAfter>(
    'link_day_visitors',
    [
      field('link_id', 'text', 'linkId'),
      field('day_start', 'int8', 'dayStart'),
      field('visitor_hash', 'text', 'visitorHash'),
    ],
    [field('clicks', 'int8', 'clicks')],
    'RETURNING link_id, day_start, visitor_hash, clicks',
  ),
  dayTotals: addCounterRows<DayTotalDelta>(
    'link_day_totals',
    [field('link_id', 'text', 'linkId'), field('day_start', 'int8', 'dayStart')],
    [field('visitors', 'int8', 'visitors'), field('single_click_visitors', 'int8', 'singleClickVisitors')],
  ),
}

/**
 * The PostgreSQL implementation: the same rows and counters as the SQLite store, each table
 * written by one multi-row statement in the flush's transaction (which links.addClicks joins),
 * counters added with `ON CONFLICT … DO UPDATE SET x = table.x + excluded.x`, so that any number
 * of linkd processes recording clicks on the same link keep exact totals. Reads are shared.
 */
export function createPostgresClickStore(db: Kysely<Database>, arrays: ArrayRows): ClickStore {
  async function apply(trx: Kysely<Database>, batch: ClickBatch): Promise<void> {
    await statements.insertClicks(trx, batch.rows)
    await statements.hours(trx, batch.hours)
    await statements.orgDays(trx, batch.orgDays)
    const returned = await statements.visitors(trx, batch.visitors)
    const afterFlush = new Map(
      returned.map((r) => [`${r.link_id}\n${r.day_start}\n${r.visitor_hash}`, r.clicks]),
    )
    const after = batch.visitors.map(
      (v) => afterFlush.get(`${v.linkId}\n${v.dayStart}\n${v.visitorHash}`) ?? 0,
    )
    await statements.dayTotals(trx, visitorTotals(batch.visitors, after))
    const dims = [...batch.dims, ...variantVisitorDims(batch.visitors, after)]
    await statements.dims(trx, dims)
    await statements.dimsMonth(trx, monthRollup(dims))
  }

  return {
    /** One transaction for a whole flush, lent as a unit of work to the links store (links.clicks). */
    transaction<T>(fn: (unit: UnitOfWork) => Promise<T>): Promise<T> {
      return db.transaction().execute((trx) => fn(postgresUnit(trx)))
    },
    apply(batch: ClickBatch, unit: UnitOfWork): Promise<void> {
      return apply(kyselyOf(unit), batch)
    },
    ...clickReads(db, arrays),
  }
}
