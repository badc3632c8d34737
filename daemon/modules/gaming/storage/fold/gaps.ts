/**
 * Distinct players over any range: increments of game_day_gaps (each newly active, paying or
 * per-type day counted against the player's previous day of the kind) and game_cohorts.
 */
import { NO_DAY } from '../types.js'
import type { Changes, GapIncrement, Neighbours } from '../types.js'
import type { FoldState } from './state.js'

export const NONE: Neighbours = { prev: NO_DAY, next: null }

/** The (active or paying) neighbours of `day`, the batch's own new days merged in. */
export function withBatchDays(from: Neighbours, day: number, batchDays: number[] | undefined): Neighbours {
  let { prev, next } = from
  for (const d of batchDays ?? []) {
    if (d < day && d > prev) prev = d
    if (d > day && (next === null || d < next)) next = d
  }
  return { prev, next }
}

function gap(st: FoldState, kind: GapIncrement['kind'], day: number, prevDay: number, n: number): void {
  const k = `${kind}\n${day}\n${prevDay}`
  const existing = st.gaps.get(k)
  if (existing) existing.players += n
  else st.gaps.set(k, { kind, day, prevDay, players: n })
}

/** A newly active (or paying) day: its gap from the previous day, and the next day's gap split. */
export function addDay(
  st: FoldState,
  kind: GapIncrement['kind'],
  day: number,
  { prev, next }: Neighbours,
): void {
  gap(st, kind, day, prev, 1)
  if (next !== null) {
    gap(st, kind, next, prev, -1)
    gap(st, kind, next, day, 1)
  }
}

/** `n` players of the install day active `dayOffset` days later. */
export function cohort(st: FoldState, installDay: number, dayOffset: number, n: number): void {
  const k = `${installDay}\n${dayOffset}`
  const existing = st.cohorts.get(k)
  if (existing) existing.players += n
  else st.cohorts.set(k, { installDay, dayOffset, players: n })
}

export function gapChanges(st: FoldState): Pick<Changes, 'gaps' | 'cohorts'> {
  return {
    gaps: [...st.gaps.values()].filter((x) => x.players !== 0),
    cohorts: [...st.cohorts.values()].filter((x) => x.players !== 0),
  }
}
