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
  /** Every player-day row of each known player, ascending by day (a player without: none or []). */
  days: ReadonlyMap<string, readonly PlayerDayRow[]>
  /** The rows of sessionKeys' currentIds found. */
  currentSessions: Iterable<SessionRow>
  /** The rows of sessionKeys' pairs found: the latest start of each pair. */
  latestSessions: Iterable<SessionRow>
}

/** The Snapshot the fold reads, from the rows a store read for `events`. */
export function snapshotOf(events: readonly AcceptedEvent[], rows: SnapshotRows): Snapshot {
  const { profiles, days: daysOf } = rows
  const playerDays = new Map<string, PlayerDayRow>()
  const activeNeighbours = new Map<string, Neighbours>()
  const payingNeighbours = new Map<string, Neighbours>()
  const allDays = new Map<string, number[]>()
  const daysDone = new Set<string>()
  for (const { event: e } of events) {
    const profile = profiles.get(e.playerId)
    if (!profile) continue
    const days = daysOf.get(e.playerId) ?? []
    const dk = pairKey(e.playerId, e.day)
    if (!daysDone.has(dk)) {
      daysDone.add(dk)
      const row = dayRowOf(days, e.day)
      if (row) playerDays.set(dk, row)
      else activeNeighbours.set(dk, neighboursIn(days, e.day, false))
    }
    if (e.revenueMicros > 0 && !payingNeighbours.has(dk))
      payingNeighbours.set(dk, neighboursIn(days, e.day, true))
    if (e.day < profile.install_day && !allDays.has(e.playerId))
      allDays.set(
        e.playerId,
        days.map((d) => d.day),
      )
  }
  const sessionsById = new Map<string, SessionRow>()
  for (const s of rows.currentSessions) sessionsById.set(s.id, s)
  const sessionsBySid = new Map<string, SessionRow>()
  for (const s of rows.latestSessions) sessionsBySid.set(pairKey(s.player_id, s.session_id!), s)
  return {
    storedEventIds: new Set(rows.storedEventIds),
    profiles,
    playerDays,
    activeNeighbours,
    payingNeighbours,
    allDays,
    sessionsBySid,
    sessionsById,
    typeDays: daysOf,
  }
}
