/** Shared by the revenue, attribution, segments and players reports: percentages and ratios. */
import { round } from '../../../../src/contract/numbers.js'

/** part / whole in percent (two decimals); 0 when whole is 0. */
export const percentOf = (part: number, whole: number) => (whole ? round((100 * part) / whole, 2) : 0)
/** a / b rounded to six decimals, or `orElse` when b is 0. */
export function ratio<T>(a: number, b: number, orElse: T): number | T {
  return b ? round(a / b, 6) : orElse
}
