/**
 * Distinct players over any range: increments of game_day_gaps (each newly active, paying or
 * per-type day counted against the player's previous day of the kind), game_cohorts and
 * game_cohort_dims.
 */
import type { PlayerGroup } from '../../../../../src/contract/limits.js'
import { GROUP_COLUMNS, NO_DAY } from '../types.js'
import type { Changes, GapIncrement, GroupColumn, Neighbours, ProfileRow } from '../types.js'
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

/**
 * `n` players of the install day active `dayOffset` days later: in the cohort, and in the cohort
 * of each of the player's acquisition values (game_cohort_dims, '' for none).
 */
export function cohort(st: FoldState, p: ProfileRow, installDay: number, dayOffset: number, n: number): void {
  const k = `${installDay}\n${dayOffset}`
  const existing = st.cohorts.get(k)
  if (existing) existing.players += n
  else st.cohorts.set(k, { installDay, dayOffset, players: n })
  for (const [dim, column] of GROUP_DIMS) cohortDim(st, dim, p[column] ?? '', installDay, dayOffset, n)
}

/** Each acquisition grouping with its profile column. */
export const GROUP_DIMS = Object.entries(GROUP_COLUMNS) as Array<[PlayerGroup, GroupColumn]>

function cohortDim(
  st: FoldState,
  dim: string,
  value: string,
  installDay: number,
  dayOffset: number,
  n: number,
) {
  const k = `${dim}\n${value}\n${installDay}\n${dayOffset}`
  const existing = st.cohortDims.get(k)
  if (existing) existing.players += n
  else st.cohortDims.set(k, { dim, value, installDay, dayOffset, players: n })
}

/**
 * A player's acquisition value that became known (first touch: from none to a value): the
 * player's active days counted so far move from the '' group to it.
 */
export function moveCohortValue(
  st: FoldState,
  playerId: string,
  installDay: number,
  dim: PlayerGroup,
  value: string,
): void {
  const days = new Set<number>(st.batchDays.get(playerId) ?? [])
  for (const row of st.snapshot.typeDays.get(playerId) ?? []) days.add(row.day)
  for (const d of days) {
    cohortDim(st, dim, '', installDay, d - installDay, -1)
    cohortDim(st, dim, value, installDay, d - installDay, 1)
  }
}

export function gapChanges(st: FoldState): Pick<Changes, 'gaps' | 'cohorts' | 'cohortDims'> {
  return {
    gaps: [...st.gaps.values()].filter((x) => x.players !== 0),
    cohorts: [...st.cohorts.values()].filter((x) => x.players !== 0),
    cohortDims: [...st.cohortDims.values()].filter((x) => x.players !== 0),
  }
}
