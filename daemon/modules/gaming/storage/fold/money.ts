/**
 * Revenue of a player: the profile's lifetime sums and first purchase, and each new paying day
 * (paying players per day and dimension, distinct-paying gaps). The day's and dimensions' revenue
 * sums are the event's own counters (countEvent in daily.ts).
 */
import { addMoney, pairKey } from '../types.js'
import type { GameEvent } from '../types.js'
import { addConversion, addPayingDimDay } from './acquisition.js'
import { dayCounters, profileDims } from './daily.js'
import { NONE, addDay, withBatchDays } from './gaps.js'
import { REVENUE_COLUMN, pushDay, type FoldState, type LiveDay, type LiveProfile } from './state.js'

/** A revenue event (revenueType set) of the player on the player-day `pd`. */
export function foldRevenue(st: FoldState, profile: LiveProfile, pd: LiveDay, event: GameEvent): void {
  if (!event.revenueType) return
  const col = REVENUE_COLUMN[event.revenueType]
  profile.dirty = true
  profile.transactions++
  profile[col] = addMoney(profile[col], event.revenueMicros)
  profile.revenue_total_micros = addMoney(profile.revenue_total_micros, event.revenueMicros)
  if (event.revenueMicros > 0) paid(st, profile, pd, event)
}

/** A paid event (amount above 0): first purchase, a new paying day, the player-day's revenue. */
function paid(st: FoldState, profile: LiveProfile, pd: LiveDay, event: GameEvent): void {
  if (profile.first_purchase_at === null) addConversion(st, profile)
  if (profile.first_purchase_at === null || event.ts < profile.first_purchase_at)
    profile.first_purchase_at = event.ts
  // A new paying day (a day already paying in the snapshot is never 0 here: payingBefore).
  if (pd.revenue_micros === 0 && !pd.payingBefore) {
    const playerId = event.playerId
    const stored = profile.known
      ? (st.snapshot.payingNeighbours.get(pairKey(playerId, event.day)) ?? NONE)
      : NONE
    const neighbours = withBatchDays(stored, event.day, st.batchPayDays.get(playerId))
    addDay(st, 'paying', event.day, neighbours)
    addPayingDimDay(st, profile, event.day, neighbours)
    pushDay(st.batchPayDays, playerId, event.day)
    dayCounters(st, event.day).paying_players++
    profileDims(st, profile, event.day, (c) => c.paying_players++)
  }
  pd.revenue_micros = addMoney(pd.revenue_micros, event.revenueMicros)
}
