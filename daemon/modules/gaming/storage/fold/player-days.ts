/**
 * Player-days (game_player_days): one row per player and active day with its events, event-type
 * bits and custom event names. A new active day counts the player as active (DAU, cohort,
 * distinct-player gaps of 'active' and its country); a type or custom name new on the day counts
 * the player for it.
 */
import { INGEST_LIMITS } from '../../../../../src/contract/limits.js'
import { NO_DAY, holdsName, pairKey } from '../types.js'
import type { Changes, GameEvent, PlayerDayRow } from '../types.js'
import { dayCounters, dimCounters, profileDims } from './daily.js'
import { NONE, addDay, cohort, withBatchDays } from './gaps.js'
import { countryKind } from './players.js'
import { pushDay, strip, type FoldState, type LiveDay, type LiveProfile } from './state.js'

/** The event's player-day, read from the snapshot or new, with the event counted in. */
export function foldPlayerDay(st: FoldState, profile: LiveProfile, event: GameEvent): LiveDay {
  const playerId = event.playerId
  const dk = pairKey(playerId, event.day)
  let pd = st.days.get(dk)
  if (!pd) {
    const row = profile.known ? st.snapshot.playerDays.get(dk) : undefined
    if (row) pd = { ...row, payingBefore: row.revenue_micros > 0, isNew: false }
    else {
      pd = {
        player_id: playerId,
        day: event.day,
        install_day: profile.install_day,
        events: 0,
        revenue_micros: 0,
        event_types: 0,
        custom_events: null,
        payingBefore: false,
        isNew: true,
      }
      // A new active day: DAU, cohort, distinct-players counters.
      const extra = st.batchDays.get(playerId)
      const maxKnown = Math.max(profile.loadedLastDay, ...(extra ?? []))
      const stored = profile.known ? (st.snapshot.activeNeighbours.get(dk) ?? NONE) : NONE
      const n =
        !profile.known && !extra
          ? NONE
          : event.day > maxKnown
            ? { prev: maxKnown, next: null }
            : withBatchDays(stored, event.day, extra)
      addDay(st, 'active', event.day, n)
      addDay(st, countryKind(profile), event.day, n)
      pushDay(st.batchDays, playerId, event.day)
      dayCounters(st, event.day).active_players++
      profileDims(st, profile, event.day, (c) => c.players++)
      cohort(st, profile, profile.install_day, event.day - profile.install_day, 1)
    }
    st.days.set(dk, pd)
  }
  pd.events++
  const bit = 2 ** event.typeBit
  if (Math.floor(pd.event_types / bit) % 2 === 0) {
    const typeValue = event.custom ? 'custom' : event.type
    pd.event_types += bit
    dimCounters(st, event.day, 'event_type', typeValue).players++
    addTypeDay(st, playerId, typeValue, bit, event.day)
  }
  if (event.custom) addCustomName(st, pd, event.type)
  return pd
}

/** A new (player, type) day: distinct players per type, against the player's days of that type. */
function addTypeDay(st: FoldState, playerId: string, typeValue: string, bit: number, day: number): void {
  let prev = NO_DAY
  let next: number | null = null
  for (const row of st.snapshot.typeDays.get(playerId) ?? [])
    if (Math.floor(row.event_types / bit) % 2 === 1) {
      if (row.day < day && row.day > prev) prev = row.day
      if (row.day > day && (next === null || row.day < next)) next = row.day
    }
  const key = `${playerId}\n${bit}`
  addDay(st, `type:${typeValue}`, day, withBatchDays({ prev, next }, day, st.batchTypeDays.get(key)))
  pushDay(st.batchTypeDays, key, day)
}

/**
 * A custom event name new on the player's day: the day's players of that name, and its
 * distinct-player gaps ('custom:<name>') against the player's other days with the name. A day
 * counts its first INGEST_LIMITS.customNamesPerPlayerDay names only, which bounds what each batch
 * reads and writes of the day whatever names a client makes up.
 */
function addCustomName(st: FoldState, pd: LiveDay, name: string): void {
  const names = (pd.customNames ??= new Set(
    pd.custom_events ? (JSON.parse(pd.custom_events) as string[]) : [],
  ))
  if (names.has(name) || names.size >= INGEST_LIMITS.customNamesPerPlayerDay) return
  names.add(name)
  dimCounters(st, pd.day, 'custom_event', name).players++
  let prev = NO_DAY
  let next: number | null = null
  for (const row of st.snapshot.typeDays.get(pd.player_id) ?? [])
    if (holdsName(row.custom_events, name)) {
      if (row.day < pd.day && row.day > prev) prev = row.day
      if (row.day > pd.day && (next === null || row.day < next)) next = row.day
    }
  const key = `${pd.player_id}\ncustom:${name}`
  addDay(st, `custom:${name}`, pd.day, withBatchDays({ prev, next }, pd.day, st.batchTypeDays.get(key)))
  pushDay(st.batchTypeDays, key, pd.day)
}

export function playerDayWrites(st: FoldState): Changes['playerDays'] {
  return [...st.days.values()].map((d) => ({
    row: {
      ...strip<PlayerDayRow>(d, 'payingBefore', 'isNew', 'customNames'),
      custom_events: d.customNames ? JSON.stringify([...d.customNames]) : d.custom_events,
    },
    isNew: d.isNew,
  }))
}
