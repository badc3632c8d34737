/**
 * Acquisition: cost and commission per attribution value and day (game_acquisition_daily),
 * conversions on the install day of a player's first paid event, and the distinct-paying-players
 * counters per platform and source (game_dim_paying_gaps: the game_day_gaps rule, per profile value).
 */
import { addMoney } from '../types.js'
import type { AcquisitionIncrement, Changes, GameEvent, Neighbours, ProfileRow } from '../types.js'
import type { FoldState } from './state.js'
import { ATTRIBUTION_DIMS, dimValue } from './daily.js'

/** Attribution dimensions of game_acquisition_daily: the profile's first-touch ones. */
const ACQUISITION_DIMS = ATTRIBUTION_DIMS
/** Profile dimensions of game_dim_paying_gaps. */
const PAYING_DIMS = ['platform', 'source'] as const

function each(
  st: FoldState,
  profile: ProfileRow,
  day: number,
  apply: (row: AcquisitionIncrement) => void,
  dims: typeof ACQUISITION_DIMS | readonly [(typeof ACQUISITION_DIMS)[number]] = ACQUISITION_DIMS,
) {
  for (const [dim, column] of dims) {
    const value = dimValue(profile[column])
    const key = `${day}\n${dim}\n${value}`
    let row = st.acquisition.get(key)
    if (!row)
      st.acquisition.set(
        key,
        (row = { day, dim, value, cost_micros: 0, commission_micros: 0, conversions: 0 }),
      )
    apply(row)
  }
}

/**
 * A paying player credited with a link later: its conversion on the install day moves from no
 * link ('') to the link.
 */
export function moveLinkConversion(st: FoldState, profile: ProfileRow): void {
  each(st, { ...profile, link_id: null }, profile.install_day, (row) => row.conversions--, [
    ['link', 'link_id'],
  ])
  each(st, profile, profile.install_day, (row) => row.conversions++, [['link', 'link_id']])
}

function gap(st: FoldState, dim: string, value: string, day: number, prevDay: number, players: number) {
  const key = `${dim}\n${value}\n${day}\n${prevDay}`
  const existing = st.dimPayingGaps.get(key)
  if (existing) existing.players += players
  else st.dimPayingGaps.set(key, { dim, value, day, prevDay, players })
}

/** The event's cost and commission, on its day. */
export function addCostAndCommission(st: FoldState, profile: ProfileRow, event: GameEvent): void {
  if (event.costMicros === 0 && event.commissionMicros === 0) return
  each(st, profile, event.day, (row) => {
    row.cost_micros = addMoney(row.cost_micros, event.costMicros)
    row.commission_micros = addMoney(row.commission_micros, event.commissionMicros)
  })
}

/** The player's first paid event: one conversion on the install day. */
export function addConversion(st: FoldState, profile: ProfileRow): void {
  each(st, profile, profile.install_day, (row) => row.conversions++)
}

/** An older event moved the install day: a converted player's conversion moves along. */
export function moveConversion(
  st: FoldState,
  profile: ProfileRow,
  oldInstall: number,
  newInstall: number,
): void {
  if (profile.first_purchase_at === null) return
  each(st, profile, oldInstall, (row) => row.conversions--)
  each(st, profile, newInstall, (row) => row.conversions++)
}

/** A new paying day of the player, with its paying neighbours (see addDay in gaps.ts). */
export function addPayingDimDay(
  st: FoldState,
  profile: ProfileRow,
  day: number,
  { prev, next }: Neighbours,
): void {
  for (const dim of PAYING_DIMS) {
    const value = dimValue(profile[dim])
    gap(st, dim, value, day, prev, 1)
    if (next !== null) {
      gap(st, dim, value, next, prev, -1)
      gap(st, dim, value, next, day, 1)
    }
  }
}

export function acquisitionChanges(st: FoldState): Pick<Changes, 'acquisition' | 'dimPayingGaps'> {
  return {
    acquisition: [...st.acquisition.values()].filter(
      (r) => r.cost_micros !== 0 || r.commission_micros !== 0 || r.conversions !== 0,
    ),
    dimPayingGaps: [...st.dimPayingGaps.values()].filter((x) => x.players !== 0),
  }
}
