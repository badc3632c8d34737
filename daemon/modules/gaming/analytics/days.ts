/** The day ranges of gaming report queries: UTC day numbers, parsed and checked (a 400 naming the field). */
import { utcDayNumber } from '../../../clock.js'
import { AppError } from '../../../http/errors.js'
import { queryTime } from '../../../http/query-time.js'
import type { OverviewQuery } from '../../../../src/contract/gaming.js'

/** Longest range of one request (contract: at most 366 days, a 400 beyond). */
export const MAX_RANGE_DAYS = 366

const dayOf = utcDayNumber

export function parseDay(value: string | undefined, field: string): number | undefined {
  return value === undefined ? undefined : dayOf(queryTime(value, field))
}

/**
 * Two optional UTC days of a query, each absent or parsed (400 naming its field when invalid), and
 * a 400 naming `startField` when the first is after the second.
 */
export function optionalDays(
  startValue: string | undefined,
  endValue: string | undefined,
  startField: string,
  endField: string,
): { start: number | undefined; end: number | undefined } {
  const start = parseDay(startValue, startField)
  const end = parseDay(endValue, endField)
  if (start !== undefined && end !== undefined && start > end)
    throw new AppError('ValidationError', `${startField} must not be after ${endField}`, [
      { field: startField, message: `must not be after ${endField}` },
    ])
  return { start, end }
}

/** The UTC day range of a request: default the last 30 days up to today, both ends included. */
export function dayRange(q: OverviewQuery, now: number): { start: number; end: number } {
  const end = parseDay(q.endDate, 'endDate') ?? dayOf(now)
  const start = parseDay(q.startDate, 'startDate') ?? end - 29
  if (start > end)
    throw new AppError('ValidationError', 'startDate must not be after endDate', [
      { field: 'startDate', message: 'must not be after endDate' },
    ])
  if (end - start + 1 > MAX_RANGE_DAYS)
    throw new AppError('ValidationError', `the range is at most ${MAX_RANGE_DAYS} days`, [
      { field: 'startDate', message: `at most ${MAX_RANGE_DAYS} days before endDate` },
    ])
  return { start, end }
}
