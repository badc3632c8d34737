/** Shared by the revenue, attribution, segments and players reports: money and percentages. */
import { DAY_MS } from '../../clock.js'

/** Micro-units to a number of the reporting currency. */
export const money = (micros: number) => micros / 1_000_000
export const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits
/** part / whole in percent (two decimals); 0 when whole is 0. */
export const percentOf = (part: number, whole: number) => (whole ? round((100 * part) / whole, 2) : 0)
/** a / b rounded to six decimals, or `orElse` when b is 0. */
export function ratio<T>(a: number, b: number, orElse: T): number | T {
  return b ? round(a / b, 6) : orElse
}
export const dateOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10)
