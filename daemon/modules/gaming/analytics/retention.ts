/**
 * Retention cohorts: one row per install day (or ISO week) of the range, with
 * the players retained on days 0, 1, 3, 7, 14 and 30 after install, from game_cohorts only.
 */
import { RETENTION_DAYS, type RetentionRow } from '../../../../src/contract/gaming.js'
import type { CohortCell } from '../storage/index.js'
import type { AggregatesStore } from '../storage/index.js'
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
 * Cohort rows from the cells of the range's install days. A day N of a cohort is null until it is
 * reached (install day + N after today; for a week, its last install day with installs); the
 * range selects the cohorts, their days are followed up to today, past the range's end.
 */
export function retentionRows(
  cells: CohortCell[],
  today: number,
  granularity: 'day' | 'week',
): RetentionRow[] {
  const groups = new Map<string, { lastDay: number; byOffset: Map<number, number> }>()
  for (const cell of cells) {
    const key = granularity === 'week' ? isoWeekOf(cell.installDay) : dateOfDay(cell.installDay)
    let group = groups.get(key)
    if (!group) groups.set(key, (group = { lastDay: cell.installDay, byOffset: new Map() }))
    if (cell.dayOffset === 0 && cell.players > 0) group.lastDay = Math.max(group.lastDay, cell.installDay)
    group.byOffset.set(cell.dayOffset, (group.byOffset.get(cell.dayOffset) ?? 0) + cell.players)
  }
  const rows: RetentionRow[] = []
  for (const [cohort, { lastDay, byOffset }] of groups) {
    const size = byOffset.get(0) ?? 0
    if (size <= 0) continue
    const days = {} as RetentionRow['days']
    for (const n of RETENTION_DAYS) {
      if (lastDay + n > today) {
        days[`d${n}`] = null
        continue
      }
      const retained = byOffset.get(n) ?? 0
      const percentage = round((100 * retained) / size, 2)
      days[`d${n}`] = { retained, percentage, band: bandOf(percentage) }
    }
    rows.push({ cohort, size, days })
  }
  // Day labels and ISO week labels both sort as text.
  return rows.sort((a, b) => (a.cohort < b.cohort ? -1 : a.cohort > b.cohort ? 1 : 0))
}

export async function retentionReport(
  aggregates: Pick<AggregatesStore, 'cohortCells'>,
  scope: Scope,
  granularity: 'day' | 'week',
) {
  const cells = await aggregates.cohortCells(scope.gameId, scope.start, scope.end, [...RETENTION_DAYS])
  return { data: retentionRows(cells, scope.today, granularity), range: scope.range }
}
