/** Shared by the revenue, attribution, segments and players reports: percentages, ratios, row order. */
import { round } from '../../../../src/contract/numbers.js'
import { NONE_GROUP } from '../../../../src/contract/gaming-revenue.js'

/** part / whole in percent (two decimals); 0 when whole is 0. */
export const percentOf = (part: number, whole: number) => (whole ? round((100 * part) / whole, 2) : 0)
/** a / b rounded to six decimals, or `orElse` when b is 0. */
export function ratio<T>(a: number, b: number, orElse: T): number | T {
  return b ? round(a / b, 6) : orElse
}

/** Rows tied on their figure: by group, the (none) row after the named ones. */
export const byGroup = (a: { group: string }, b: { group: string }) =>
  Number(a.group === NONE_GROUP) - Number(b.group === NONE_GROUP) || a.group.localeCompare(b.group)
