/**
 * Retention by return event (game_cohort_events): per install day, retention offset and event
 * type (named, or a custom name), the players who sent that type on that day, for all players
 * (dim '') and per acquisition value. Worked out once per batch from what it changed: a type new
 * on a player-day at a retention offset counts once; a player whose install day or an acquisition
 * value changed has every retention day taken out of the old counts and put into the new ones.
 */
import { RETENTION_DAYS } from '../../../../../src/contract/limits.js'
import { CUSTOM_BIT, EVENT_TYPE_BY_BIT, pairKey } from '../types.js'
import type { CohortEventIncrement, PlayerDayRow, ProfileRow } from '../types.js'
import { GROUP_DIMS } from './gaps.js'
import type { FoldState, LiveDay } from './state.js'

const OFFSETS: ReadonlySet<number> = new Set(RETENTION_DAYS)

type Day = Pick<PlayerDayRow, 'day' | 'event_types' | 'custom_events'>
type Counts = Map<string, CohortEventIncrement>

export function cohortEventChanges(st: FoldState): CohortEventIncrement[] {
  const counts: Counts = new Map()
  const moved = new Set<string>()
  for (const [playerId, now] of st.profiles) {
    const before = st.snapshot.profiles.get(playerId)
    if (
      before &&
      (before.install_day !== now.install_day || GROUP_DIMS.some(([, c]) => before[c] !== now[c]))
    )
      moved.add(playerId)
  }
  const movedDays = new Map<string, LiveDay[]>()
  for (const d of st.days.values()) {
    if (moved.has(d.player_id)) {
      movedDays.set(d.player_id, [...(movedDays.get(d.player_id) ?? []), d])
      continue
    }
    const offset = d.day - d.install_day
    if (!OFFSETS.has(offset)) continue
    const before = d.isNew ? undefined : st.snapshot.playerDays.get(pairKey(d.player_id, d.day))
    const names = d.customNames ? new Set(d.customNames) : undefined
    if (names && before?.custom_events)
      for (const name of JSON.parse(before.custom_events) as string[]) names.delete(name)
    const profile = st.profiles.get(d.player_id)!
    count(counts, profile, d.install_day, offset, d.event_types & ~(before?.event_types ?? 0), names, 1)
  }
  for (const playerId of moved) {
    const before = st.snapshot.profiles.get(playerId)!
    const stored = st.snapshot.typeDays.get(playerId) ?? []
    for (const d of stored) countDay(counts, before, before.install_day, d, -1)
    const now = new Map<number, Day>(stored.map((d) => [d.day, d]))
    for (const d of movedDays.get(playerId) ?? [])
      now.set(d.day, {
        day: d.day,
        event_types: d.event_types,
        custom_events: d.customNames ? JSON.stringify([...d.customNames]) : d.custom_events,
      })
    const profile = st.profiles.get(playerId)!
    for (const d of now.values()) countDay(counts, profile, profile.install_day, d, 1)
  }
  return [...counts.values()].filter((x) => x.players !== 0)
}

/** Every type of a stored (or rebuilt) day, `n` times, when the day is at a retention offset. */
function countDay(counts: Counts, p: ProfileRow, installDay: number, d: Day, n: number): void {
  const offset = d.day - installDay
  if (!OFFSETS.has(offset)) return
  const names = d.custom_events ? (JSON.parse(d.custom_events) as string[]) : undefined
  count(counts, p, installDay, offset, d.event_types, names, n)
}

/** `n` players for each named type of `bits` and each custom name, overall and per acquisition value. */
function count(
  counts: Counts,
  p: ProfileRow,
  installDay: number,
  dayOffset: number,
  bits: number,
  names: Iterable<string> | undefined,
  n: number,
): void {
  const add = (eventType: string) => {
    cell(counts, eventType, '', '', installDay, dayOffset, n)
    for (const [dim, column] of GROUP_DIMS)
      cell(counts, eventType, dim, p[column] ?? '', installDay, dayOffset, n)
  }
  // The bit every custom type shares is no type: its names are counted one by one.
  for (let bit = 0; bit < CUSTOM_BIT && bits >> bit !== 0; bit++)
    if ((bits >> bit) & 1) add(EVENT_TYPE_BY_BIT[bit]!)
  for (const name of names ?? []) add(name)
}

function cell(
  counts: Counts,
  eventType: string,
  dim: string,
  value: string,
  installDay: number,
  dayOffset: number,
  n: number,
): void {
  const k = `${eventType}\n${dim}\n${value}\n${installDay}\n${dayOffset}`
  const existing = counts.get(k)
  if (existing) existing.players += n
  else counts.set(k, { eventType, dim, value, installDay, dayOffset, players: n })
}
