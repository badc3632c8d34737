/**
 * Day aggregates: the counters of game_daily (per day) and game_daily_dims (per day, dimension and
 * value), as increments. countEvent is the layer's per-event part; the other layers count their
 * own facts (new players, active and paying days, sessions) through dayCounters and profileDims.
 */
import { addMoney } from '../types.js'
import type { AcceptedEvent, Changes, DailyCounters, DimCounters, GameEvent, ProfileRow } from '../types.js'
import { REVENUE_COLUMN, type FoldState, type LiveDay } from './state.js'

const zeroDaily = (): DailyCounters => ({
  active_players: 0,
  new_players: 0,
  paying_players: 0,
  sessions: 0,
  session_seconds: 0,
  events: 0,
  flagged_events: 0,
  transactions: 0,
  revenue_iap_micros: 0,
  revenue_ad_micros: 0,
  revenue_subscription_micros: 0,
})
const zeroDim = (): DimCounters => ({
  players: 0,
  new_players: 0,
  paying_players: 0,
  events: 0,
  transactions: 0,
  revenue_iap_micros: 0,
  revenue_ad_micros: 0,
  revenue_subscription_micros: 0,
  sessions: 0,
})

/** First-touch attribution dimensions: the dim's name and the profile column of its value. */
export const ATTRIBUTION_DIMS = [
  ['affiliate', 'affiliate'],
  ['campaign', 'campaign'],
  ['source', 'source'],
  ['medium', 'medium'],
  ['link', 'link_id'],
] as const

/** Profile dimensions of game_daily_dims: the dim's name and the profile column of its value. */
const PROFILE_DIMS = [['platform', 'platform'], ['country', 'country'], ...ATTRIBUTION_DIMS] as const

/** The game_daily counters of `day`, created at zero. */
export function dayCounters(st: FoldState, day: number): DailyCounters {
  let c = st.daily.get(day)
  if (!c) st.daily.set(day, (c = zeroDaily()))
  return c
}

/** The game_daily_dims counters of (day, dim, value), created at zero. */
export function dimCounters(st: FoldState, day: number, dim: string, value: string): DimCounters {
  let byDim = st.dimIndex.get(day)
  if (!byDim) st.dimIndex.set(day, (byDim = new Map()))
  let byValue = byDim.get(dim)
  if (!byValue) byDim.set(dim, (byValue = new Map()))
  let d = byValue.get(value)
  if (!d) {
    byValue.set(value, (d = { day, dim, value, counters: zeroDim() }))
    st.dims.push(d)
  }
  return d.counters
}

/**
 * The value a profile dimension is counted under: a missing one (no source, no link, unknown
 * country) is '' (the reports' `(none)` row), so that every dimension's rows add up to the day.
 */
export const dimValue = (v: string | null): string => v ?? ''

/** Applies `f` to the counters of each profile dimension's value. */
export function profileDims(st: FoldState, p: ProfileRow, day: number, f: (c: DimCounters) => void): void {
  for (const [dim, column] of PROFILE_DIMS) f(dimCounters(st, day, dim, dimValue(p[column])))
}

/**
 * The event itself: events, flagged events, per type and custom type, transactions and revenue.
 * `day` is the event's player-day, already folded (the custom names it counts).
 */
export function countEvent(
  st: FoldState,
  profile: ProfileRow,
  day: Pick<LiveDay, 'customNames'>,
  event: GameEvent,
  verdict: AcceptedEvent['verdict'],
): void {
  const dc = dayCounters(st, event.day)
  dc.events++
  if (verdict === 'flag') dc.flagged_events++
  const typeC = dimCounters(st, event.day, 'event_type', event.custom ? 'custom' : event.type)
  typeC.events++
  // A custom name the player's day does not count per name: events only ('custom_event_uncounted').
  if (event.custom)
    dimCounters(
      st,
      event.day,
      day.customNames!.has(event.type) ? 'custom_event' : 'custom_event_uncounted',
      event.type,
    ).events++
  profileDims(st, profile, event.day, (c) => c.events++)
  if (event.revenueType) {
    const col = REVENUE_COLUMN[event.revenueType]
    dc.transactions++
    dc[col] = addMoney(dc[col], event.revenueMicros)
    typeC.transactions++
    typeC[col] = addMoney(typeC[col], event.revenueMicros)
    profileDims(st, profile, event.day, (c) => {
      c.transactions++
      c[col] = addMoney(c[col], event.revenueMicros)
    })
  }
}

export function dailyChanges(st: FoldState): Pick<Changes, 'daily' | 'dims'> {
  return {
    daily: [...st.daily].map(([day, c]) => ({ day, ...c })),
    dims: st.dims.map(({ day, dim, value, counters }) => ({ day, dim, value, ...counters })),
  }
}
