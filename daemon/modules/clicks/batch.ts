/**
 * A click flush as the stores receive it: the raw rows and the counter increments the recorder
 * derived from them (ClickBatch), and the rollups that both stores compute from it as they write
 * (monthly dimensions, daily visitor totals, per-variant visitors).
 */
import type {
  Camelized,
  ClicksTable,
  LinkClickDimsTable,
  LinkClickHoursTable,
  LinkDayTotalsTable,
  LinkDayVisitorsTable,
  OrgClickDaysTable,
} from '../../db/schema.js'
import { utcMonthStart } from '../../clock.js'

/** One click row as stored (no raw IP); the flags as booleans (0/1 in the table). */
export type ClickRow = Omit<Camelized<ClicksTable>, 'isBot' | 'isQr'> & { isBot: boolean; isQr: boolean }
/** Increments of one link's hourly counters. */
export type HourDelta = Camelized<LinkClickHoursTable>
/** Increments of one link's daily count of a dimension value. */
export type DimDelta = Camelized<LinkClickDimsTable>
/** Increments of one visitor's daily clicks on a link. */
export type VisitorDelta = Camelized<LinkDayVisitorsTable>
/** A visitor of a flush, with the variant of its first click in it (null: none). */
export type VisitorOfBatch = VisitorDelta & { variant: string | null }

/** Increments of one organization's clicks of one UTC day. */
export type OrgDayDelta = Camelized<OrgClickDaysTable>

/** One flush: raw rows plus the counter increments they imply. */
export interface ClickBatch {
  rows: ClickRow[]
  hours: HourDelta[]
  orgDays: OrgDayDelta[]
  dims: DimDelta[]
  visitors: VisitorOfBatch[]
}

/** One link's human clicks of a dimension value over a UTC calendar month. */
export type MonthDelta = Omit<DimDelta, 'dayStart'> & { monthStart: number }

/** The monthly rollup of a flush's daily dimension counters: one row per link, month, dim and value. */
export function monthRollup(dims: readonly DimDelta[]): MonthDelta[] {
  const months = new Map<string, MonthDelta>()
  for (const d of dims) {
    const monthStart = utcMonthStart(d.dayStart)
    const key = `${d.linkId}\n${monthStart}\n${d.dim}\n${d.value}`
    const m = months.get(key)
    if (m) m.clicks += d.clicks
    else months.set(key, { linkId: d.linkId, monthStart, dim: d.dim, value: d.value, clicks: d.clicks })
  }
  return [...months.values()]
}

/** Increments of one link's daily visitor totals. */
export type DayTotalDelta = Camelized<LinkDayTotalsTable>

/**
 * Daily visitor totals, maintained from what each visitor upsert returned (`after[i]`: visitor
 * i's clicks that day after this flush): a visitor is new to the day when its count before the
 * flush was 0, and leaves the single-click group when it was 1.
 */
export function visitorTotals(visitors: readonly VisitorDelta[], after: readonly number[]): DayTotalDelta[] {
  const totals = new Map<string, DayTotalDelta>()
  visitors.forEach((v, i) => {
    const afterFlush = after[i] ?? 0
    const before = afterFlush - v.clicks
    const key = `${v.linkId}\n${v.dayStart}`
    let t = totals.get(key)
    if (!t)
      totals.set(key, (t = { linkId: v.linkId, dayStart: v.dayStart, visitors: 0, singleClickVisitors: 0 }))
    if (before === 0) t.visitors++
    t.singleClickVisitors += (afterFlush === 1 ? 1 : 0) - (before === 1 ? 1 : 0)
  })
  return [...totals.values()]
}

/**
 * The per-variant visitor counters of a flush ('variant_visitors' dimension rows): one for each
 * visitor new to the day (`after[i]`, as for visitorTotals) whose click went to a variant.
 */
export function variantVisitorDims(
  visitors: readonly VisitorOfBatch[],
  after: readonly number[],
): DimDelta[] {
  const dims = new Map<string, DimDelta>()
  visitors.forEach((v, i) => {
    if (v.variant === null || (after[i] ?? 0) - v.clicks !== 0) return
    const key = `${v.linkId}\n${v.dayStart}\n${v.variant}`
    const d = dims.get(key)
    if (d) d.clicks++
    else
      dims.set(key, {
        linkId: v.linkId,
        dayStart: v.dayStart,
        dim: 'variant_visitors',
        value: v.variant,
        clicks: 1,
      })
  })
  return [...dims.values()]
}
