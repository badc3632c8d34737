/**
 * GET /analytics/games/:gameId/revenue: revenue per day, ISO week, month, platform or source of
 * the range, with transactions, distinct paying players and ARPPU, and the totals of the range.
 * Read from game_daily, game_daily_dims and the distinct-player gaps (game_day_gaps,
 * game_dim_paying_gaps): never raw events or player-days.
 */
import {
  NONE_GROUP,
  type RevenueQuery,
  type RevenueReport,
  type RevenueRow,
} from '../../../../src/contract/gaming-revenue.js'
import { DAY_MS, dateOfDay } from '../../../clock.js'
import type { GameRecord } from '../games/index.js'
import type { AcquisitionStore, AggregatesStore } from '../storage/index.js'
import { byGroup, ratio } from './money.js'
import { money } from '../../../../src/contract/numbers.js'

interface Counters {
  iap: number
  ad: number
  subscription: number
  transactions: number
}
const zero = (): Counters => ({ iap: 0, ad: 0, subscription: 0, transactions: 0 })

/** The Monday (UTC day number) of the ISO week holding `day` (day 0, 1970-01-01, is a Thursday). */
export const isoWeekStart = (day: number) => day - ((((day + 3) % 7) + 7) % 7)

/** `YYYY-Www` of the ISO week holding `day`: the week belongs to the year of its Thursday. */
export function isoWeekLabel(day: number): string {
  const thursday = isoWeekStart(day) + 3
  const year = new Date(thursday * DAY_MS).getUTCFullYear()
  const week = Math.floor((thursday - Date.UTC(year, 0, 1) / DAY_MS) / 7) + 1
  return `${year}-W${String(week).padStart(2, '0')}`
}

/** The first day of the month after the month of `day`. */
const nextMonthStart = (day: number) => {
  const d = new Date(day * DAY_MS)
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / DAY_MS
}

/** The time buckets of [start, end], clipped to the range: [first, last, label]. */
function buckets(groupBy: 'day' | 'week' | 'month', start: number, end: number): [number, number, string][] {
  const out: [number, number, string][] = []
  for (let first = start; first <= end;) {
    const next =
      groupBy === 'day' ? first + 1 : groupBy === 'week' ? isoWeekStart(first) + 7 : nextMonthStart(first)
    const last = Math.min(next - 1, end)
    const label =
      groupBy === 'day'
        ? dateOfDay(first)
        : groupBy === 'week'
          ? isoWeekLabel(first)
          : dateOfDay(first).slice(0, 7)
    out.push([first, last, label])
    first = next
  }
  return out
}

const row = (group: string, c: Counters, payingUsers: number): RevenueRow => {
  const totalMicros = c.iap + c.ad + c.subscription
  return {
    group,
    total: money(totalMicros),
    iap: money(c.iap),
    ad: money(c.ad),
    subscription: money(c.subscription),
    transactions: c.transactions,
    payingUsers,
    arppu: ratio(money(totalMicros), payingUsers, 0),
  }
}

export async function revenueReport(
  { aggregates, acquisition }: { aggregates: AggregatesStore; acquisition: AcquisitionStore },
  game: GameRecord,
  range: { start: number; end: number },
  q: RevenueQuery,
): Promise<RevenueReport> {
  const { start, end } = range
  const groupBy = q.groupBy ?? 'day'
  const [totals, transactions, payers] = await Promise.all([
    aggregates.dailyTotals(game.id, start, end),
    acquisition.transactions(game.id, start, end),
    aggregates.distinct(game.id, 'paying', start, end),
  ])
  let data: RevenueRow[]
  if (groupBy === 'platform' || groupBy === 'source') {
    const [rows, paying] = await Promise.all([
      acquisition.revenueByDim(game.id, groupBy, start, end),
      acquisition.payingByDim(game.id, groupBy, start, end),
    ])
    data = rows
      .filter((r) => r.iap + r.ad + r.subscription + r.transactions > 0)
      // Players without the value are stored under '': the (none) row.
      .map((r) => row(r.value === '' ? NONE_GROUP : r.value, r, paying.get(r.value) ?? 0))
      .sort((a, b) => b.total - a.total || byGroup(a, b))
  } else {
    const days = await acquisition.revenueByDay(game.id, start, end)
    const spans = buckets(groupBy, start, end)
    // Distinct paying players of a week or month: the gaps; of a day: the day's own counter.
    const paying = await Promise.all(
      spans.map(([first, last]) =>
        groupBy === 'day'
          ? (days.find((d) => d.day === first)?.payingPlayers ?? 0)
          : aggregates.distinct(game.id, 'paying', first, last),
      ),
    )
    data = spans.map(([first, last, label], i) => {
      const c = zero()
      for (const d of days)
        if (d.day >= first && d.day <= last) {
          c.iap += d.iap
          c.ad += d.ad
          c.subscription += d.subscription
          c.transactions += d.transactions
        }
      return row(label, c, paying[i]!)
    })
  }
  const { group: _group, ...totalFigures } = row('', { ...totals, transactions }, payers)
  return {
    data,
    totals: totalFigures,
    currency: game.reportingCurrency,
    range: { startDate: dateOfDay(start), endDate: dateOfDay(end) },
  }
}
