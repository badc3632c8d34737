/**
 * Retention cohorts: one row per install day (or ISO week) of the range, with the players
 * retained on days 0, 1, 3, 7, 14 and 30 after install; per acquisition group, and counting only
 * the players back with one event type, on demand.
 */
import {
  RETENTION_DAYS,
  type Retention,
  type RetentionQuery,
  type RetentionRow,
} from '../../../../src/contract/gaming.js'
import { NONE_GROUP } from '../../../../src/contract/gaming-revenue.js'
import type { CohortCell, GroupCohortCell } from '../storage/index.js'
import type { AggregatesStore } from '../storage/index.js'
import { byGroup } from './money.js'
import type { Scope } from './scope.js'
import { round } from '../../../../src/contract/numbers.js'
import { dateOfDay } from '../../../clock.js'

type Band = NonNullable<RetentionRow['days']['d0']>['band']

/** green >= 50 %, yellow >= 30 %, amber >= 15 %, red > 0 %, none at 0. */
export function bandOf(percentage: number): Band {
  if (percentage >= 50) return 'green'
  if (percentage >= 30) return 'yellow'
  if (percentage >= 15) return 'amber'
  return percentage > 0 ? 'red' : 'none'
}

/** The ISO 8601 week of a UTC day number, as YYYY-Www (weeks start on Monday; week 1 holds a Thursday). */
export function isoWeekOf(day: number): string {
  // Day 0 (1970-01-01) was a Thursday: ISO weekday 1 = Monday … 7 = Sunday.
  const weekday = ((((day + 3) % 7) + 7) % 7) + 1
  const thursday = day - weekday + 4
  const year = new Date(thursday * 86_400_000).getUTCFullYear()
  const firstOfYear = Date.UTC(year, 0, 1) / 86_400_000
  const week = Math.floor((thursday - firstOfYear) / 7) + 1
  return `${year}-W${String(week).padStart(2, '0')}`
}

/**
 * Cohort rows from the sizes (offset 0 cells) and the retained cells of the range's install days.
 * A day N of a cohort is null until it is reached (install day + N after today; for a week, its
 * last install day with installs); the range selects the cohorts, their days are followed up to
 * today, past the range's end.
 */
export function retentionRows(
  sizes: CohortCell[],
  retained: CohortCell[],
  today: number,
  granularity: 'day' | 'week',
): RetentionRow[] {
  const keyOf = (day: number) => (granularity === 'week' ? isoWeekOf(day) : dateOfDay(day))
  const groups = new Map<string, { lastDay: number; size: number; byOffset: Map<number, number> }>()
  const groupOf = (day: number) => {
    const key = keyOf(day)
    let group = groups.get(key)
    if (!group) groups.set(key, (group = { lastDay: day, size: 0, byOffset: new Map() }))
    return group
  }
  for (const cell of sizes) {
    const group = groupOf(cell.installDay)
    group.size += cell.players
    if (cell.players > 0) group.lastDay = Math.max(group.lastDay, cell.installDay)
  }
  for (const cell of retained) {
    const group = groupOf(cell.installDay)
    group.byOffset.set(cell.dayOffset, (group.byOffset.get(cell.dayOffset) ?? 0) + cell.players)
  }
  const rows: RetentionRow[] = []
  for (const [cohort, { lastDay, size, byOffset }] of groups) {
    if (size <= 0) continue
    const days = {} as RetentionRow['days']
    for (const n of RETENTION_DAYS) {
      if (lastDay + n > today) {
        days[`d${n}`] = null
        continue
      }
      const kept = byOffset.get(n) ?? 0
      const percentage = round((100 * kept) / size, 2)
      days[`d${n}`] = { retained: kept, percentage, band: bandOf(percentage) }
    }
    rows.push({ cohort, size, days })
  }
  // Day labels and ISO week labels both sort as text.
  return rows.sort((a, b) => (a.cohort < b.cohort ? -1 : a.cohort > b.cohort ? 1 : 0))
}

/**
 * Retention of the range's install cohorts (docs/decisions/retention-reads.md for what each case
 * reads): from game_cohorts, per acquisition value from game_cohort_dims; with `returnEvent`, the
 * retained players from game_cohort_events, the sizes still from the cohorts.
 */
export async function retentionReport(
  aggregates: Pick<AggregatesStore, 'cohortCells' | 'cohortDimCells' | 'returnCells'>,
  scope: Scope,
  q: Pick<RetentionQuery, 'granularity' | 'groupBy' | 'returnEvent'>,
): Promise<Retention> {
  const granularity = q.granularity ?? 'day'
  const offsets = [...RETENTION_DAYS]
  const { gameId, start, end } = scope
  const cells: GroupCohortCell[] = q.groupBy
    ? await aggregates.cohortDimCells(gameId, q.groupBy, start, end, q.returnEvent ? [0] : offsets)
    : (await aggregates.cohortCells(gameId, start, end, q.returnEvent ? [0] : offsets)).map((c) => ({
        ...c,
        value: '',
      }))
  const sizes = cells.filter((c) => c.dayOffset === 0)
  const retained = q.returnEvent
    ? await aggregates.returnCells(gameId, q.returnEvent, q.groupBy ?? '', start, end, offsets)
    : cells
  if (!q.groupBy)
    return { data: retentionRows(sizes, retained, scope.today, granularity), range: scope.range }
  const values = [...new Set(sizes.map((c) => c.value))]
    .map((value) => ({ value, group: value === '' ? NONE_GROUP : value }))
    .sort(byGroup)
  const data: RetentionRow[] = []
  for (const { value, group } of values) {
    const rows = retentionRows(
      sizes.filter((c) => c.value === value),
      retained.filter((c) => c.value === value),
      scope.today,
      granularity,
    )
    for (const row of rows) data.push({ group, ...row })
  }
  return { data, range: scope.range }
}
