/**
 * How far revenue estimated from a conversion schema is from the true revenue of a history:
 * each player sends one fine value, the schema decodes it to an amount; the error compares the
 * decoded amounts with what the players really spent in the window.
 */
import { money, round } from '../../../../src/contract/numbers.js'

/** Reporting currency; relativeError is a signed fraction of the true total (null: no revenue). */
export interface RevenueError {
  /** The history's true revenue in the window, and the revenue the decoded values add up to. */
  revenue: number
  estimatedRevenue: number
  /** (estimated − true) / true. */
  relativeError: number | null
  /** Mean over installs of |decoded − true| per player. */
  meanAbsoluteError: number
}

export interface Measured {
  summary: RevenueError
  /** Players and their true revenue (micros) per fine value 0-63. */
  playersByValue: number[]
  revenueByValue: number[]
}

/** Micros (fractional for estimates) → reporting currency, rounded to the micro. */
export const roundedMoney = (micros: number) => money(Math.round(micros))

/** Runs `encode` on every player of the history (the value sent, the amount it decodes to). */
export function measureError(
  history: History,
  encode: (revenueMicros: number, eventTypes: number) => { value: number; estimateMicros: number },
): Measured {
  const playersByValue = new Array<number>(64).fill(0)
  const revenueByValue = new Array<number>(64).fill(0)
  let truth = 0
  let estimate = 0
  let absolute = 0
  const n = history.revenueMicros.length
  for (let i = 0; i < n; i++) {
    const revenue = history.revenueMicros[i]!
    const { value, estimateMicros } = encode(revenue, history.eventTypes[i]!)
    playersByValue[value]!++
    revenueByValue[value]! += revenue
    truth += revenue
    estimate += estimateMicros
    absolute += Math.abs(estimateMicros - revenue)
  }
  return {
    summary: {
      revenue: roundedMoney(truth),
      estimatedRevenue: roundedMoney(estimate),
      relativeError: truth === 0 ? null : round((estimate - truth) / truth, 6),
      meanAbsoluteError: n === 0 ? 0 : roundedMoney(absolute / n),
    },
    playersByValue,
    revenueByValue,
  }
}

/** Players' first windows as columns (index i is one player): cheap for a million players. */
export interface History {
  /** Revenue within the window, reporting-currency micros. */
  revenueMicros: ArrayLike<number>
  /** Event type bit set within the window (bit i = typeByBit[i]). */
  eventTypes: ArrayLike<number>
  typeByBit: readonly string[]
}
