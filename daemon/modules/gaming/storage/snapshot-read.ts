/**
 * What a batch's snapshot reads (the plan both batch stores follow, pure): the keys read first and
 * how the rows read make the Snapshot the fold reads. snapshot-plan.ts plans the writes.
 */
import type { AcceptedEvent, Neighbours, PlayerDayRow, ProfileRow, SessionRow, Snapshot } from './types.js'
import { NO_DAY, pairKey } from './types.js'

/** The keys a batch reads first: its distinct event ids (duplicates?) and player ids (profiles). */
export function batchKeys(events: readonly AcceptedEvent[]): { eventIds: string[]; playerIds: string[] } {
  const eventIds = new Set<string>()
  const playerIds = new Set<string>()
  for (const { event } of events) {
    eventIds.add(event.eventId)
    playerIds.add(event.playerId)
  }
  return { eventIds: [...eventIds], playerIds: [...playerIds] }
}

/**
 * The sessions a batch reads, of its known players only: each profile's current session (by id),
 * and the latest start of each (player, session_id) pair its events name.
 */
export function sessionKeys(
  events: readonly AcceptedEvent[],
  profiles: ReadonlyMap<string, ProfileRow>,
): { currentIds: string[]; pairs: Array<readonly [playerId: string, sessionId: string]> } {
  const currentIds: string[] = []
  for (const p of profiles.values()) if (p.current_session_id !== null) currentIds.push(p.current_session_id)
  const pairs = new Map<string, readonly [string, string]>()
  for (const { event: e } of events)
    if (e.sessionId && profiles.has(e.playerId))
      pairs.set(pairKey(e.playerId, e.sessionId), [e.playerId, e.sessionId])
  return { currentIds, pairs: [...pairs.values()] }
}

/** The previous and next day of `days` (ascending by day) around `day`; only paying days if `paying`. */
export function neighboursIn(days: readonly PlayerDayRow[], day: number, paying: boolean): Neighbours {
  let prev = NO_DAY
  let next: number | null = null
  for (const row of days) {
    if (paying && !(row.revenue_micros > 0)) continue
    if (row.day < day) prev = row.day
    else if (row.day > day) {
      next = row.day
      break
    }
  }
  return { prev, next }
}

/** The row of `day` among `days` (ascending by day), if there is one. */
export function dayRowOf(days: readonly PlayerDayRow[], day: number): PlayerDayRow | undefined {
  for (const row of days) if (row.day >= day) return row.day === day ? row : undefined
  return undefined
}

/** The rows a store read for a batch, as the tables held them before it. */
export interface SnapshotRows {
  /** The batch's event ids already stored. */
  storedEventIds: Iterable<string>
  /** The profiles of the batch's known players, by player id. */
  profiles: ReadonlyMap<string, ProfileRow>
  /**
   * Every player-day row of a known player, ascending by day (none: []). Called only when the fold
   * needs the player's history: a returning player's batch on a day it already has a row for,
   * adding no new type, reads none of it (its cost would grow with the player's lifetime).
   */
  days(playerId: string): readonly PlayerDayRow[]
  /** The row of one day of a known player, where a store reads it without the history. */
  dayRow?(playerId: string, day: number): PlayerDayRow | undefined
  /** The rows of sessionKeys' currentIds found. */
  currentSessions: Iterable<SessionRow>
  /** The rows of sessionKeys' pairs found: the latest start of each pair. */
  latestSessions: Iterable<SessionRow>
}

/** A lookup of `keys` (key: player and day) whose values are made on the first get. */
function lazy<V>(keys: ReadonlyMap<string, readonly [string, number]>, make: (p: string, day: number) => V) {
  const made = new Map<string, V>()
  return {
    get(key: string): V | undefined {
      const at = keys.get(key)
      if (!at) return undefined
      let v = made.get(key)
      if (v === undefined) made.set(key, (v = make(at[0], at[1])))
      return v
    },
  }
}

/** The Snapshot the fold reads, from the rows a store read for `events`. */
export function snapshotOf(events: readonly AcceptedEvent[], rows: SnapshotRows): Snapshot {
  const { profiles } = rows
  const histories = new Map<string, readonly PlayerDayRow[]>()
  const history = (playerId: string) => {
    let days = histories.get(playerId)
    if (!days) histories.set(playerId, (days = rows.days(playerId)))
    return days
  }
  const rowOf = rows.dayRow ?? ((playerId: string, day: number) => dayRowOf(history(playerId), day))
  const playerDays = new Map<string, PlayerDayRow>()
  const noRow = new Map<string, readonly [string, number]>()
  const paying = new Map<string, readonly [string, number]>()
  const beforeInstall = new Set<string>()
  for (const { event: e } of events) {
    const profile = profiles.get(e.playerId)
    if (!profile) continue
    const dk = pairKey(e.playerId, e.day)
    if (!playerDays.has(dk) && !noRow.has(dk)) {
      const row = rowOf(e.playerId, e.day)
      if (row) playerDays.set(dk, row)
      else noRow.set(dk, [e.playerId, e.day])
    }
    if (e.revenueMicros > 0) paying.set(dk, [e.playerId, e.day])
    if (e.day < profile.install_day) beforeInstall.add(e.playerId)
  }
  const sessionsById = new Map<string, SessionRow>()
  for (const s of rows.currentSessions) sessionsById.set(s.id, s)
  const sessionsBySid = new Map<string, SessionRow>()
  for (const s of rows.latestSessions) sessionsBySid.set(pairKey(s.player_id, s.session_id!), s)
  return {
    storedEventIds: new Set(rows.storedEventIds),
    profiles,
    playerDays,
    activeNeighbours: lazy(noRow, (p, day) => neighboursIn(history(p), day, false)),
    payingNeighbours: lazy(paying, (p, day) => neighboursIn(history(p), day, true)),
    allDays: { get: (p) => (beforeInstall.has(p) ? history(p).map((d) => d.day) : undefined) },
    sessionsBySid,
    sessionsById,
    typeDays: { get: (p) => (profiles.has(p) ? history(p) : undefined) },
  }
}
