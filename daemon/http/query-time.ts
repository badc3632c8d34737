/** The dates of report queries (startDate, endDate), read alike by every route that takes them. */
import { DATE_PARAM_WORDS } from '../../src/contract/text.js'
import { validationError } from './errors.js'

/**
 * A query's ISO 8601 date or date-time in Unix ms (a date alone: its UTC midnight). A 400 naming
 * `field`, in the words the schema uses for a malformed one, when it is none or names a day its
 * month does not have (Date.parse rolls 2026-02-30 over to March 2: refused instead).
 */
export function queryTime(value: string, field: string): number {
  const ms = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value)
  const [y, m, d] = value.slice(0, 10).split('-').map(Number) as [number, number, number]
  const calendar = new Date(Date.UTC(y, m - 1, d))
  if (!Number.isFinite(ms) || calendar.getUTCMonth() !== m - 1 || calendar.getUTCDate() !== d)
    throw validationError([{ field, message: DATE_PARAM_WORDS }])
  return ms
}
