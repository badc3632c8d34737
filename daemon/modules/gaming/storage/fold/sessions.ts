/**
 * Sessions (game_sessions): an event joins its player's session (by session_id, else the current
 * one) unless 30 minutes without events or a session_end lie between; otherwise it starts one.
 * Sessions and their seconds count on their start day, per day and profile dimension.
 */
import { INGEST_LIMITS } from '../../../../../src/contract/limits.js'
import { utcDayNumber } from '../../../../clock.js'
import { pairKey } from '../types.js'
import type { GameEvent, SessionRow, SessionWrite } from '../types.js'
import { dayCounters, profileDims } from './daily.js'
import { strip, type FoldState, type LiveProfile, type LiveSession } from './state.js'

const GAP = INGEST_LIMITS.sessionGapMs

export const sessionSeconds = (s: { started_at: number; last_event_at: number; ended_at: number | null }) =>
  Math.floor(((s.ended_at ?? s.last_event_at) - s.started_at) / 1000)

/** A session row of the snapshot, or the batch's newer state of it. */
function liveSession(st: FoldState, row: SessionRow | undefined): LiveSession | null {
  if (!row) return null
  let live = st.sessions.get(row.id)
  if (!live)
    st.sessions.set(row.id, (live = { ...row, isNew: false, touched: false, loadedStart: row.started_at }))
  return live
}

/** The player's current session (latest by last event): the profile names it. */
function latestOf(st: FoldState, p: LiveProfile): LiveSession | null {
  let s = st.latest.get(p.player_id)
  if (s === undefined) {
    s =
      p.known && p.current_session_id
        ? liveSession(st, st.snapshot.sessionsById.get(p.current_session_id))
        : null
    st.latest.set(p.player_id, s)
  }
  return s
}

/** The event's session: joined or started; the latest becomes the profile's current session. */
export function foldSession(st: FoldState, profile: LiveProfile, event: GameEvent): void {
  const playerId = event.playerId
  let s: LiveSession | null | undefined
  if (event.sessionId) {
    const k = pairKey(playerId, event.sessionId)
    s = st.bySid.get(k)
    if (s === undefined) {
      s = profile.known ? liveSession(st, st.snapshot.sessionsBySid.get(k)) : null
      st.bySid.set(k, s)
    }
  } else s = latestOf(st, profile)
  if (
    s &&
    !(s.ended_at !== null && event.ts > s.ended_at) &&
    event.ts >= s.started_at - GAP &&
    event.ts <= s.last_event_at + GAP
  )
    joinSession(st, profile, s, event)
  else s = startSession(st, profile, event)
  const current = latestOf(st, profile)
  if (!current || s.last_event_at >= current.last_event_at) {
    st.latest.set(playerId, s)
    profile.current_session_id = s.id
  }
}

/** The event within the session's reach: its times and events; an earlier start moves its day. */
function joinSession(st: FoldState, profile: LiveProfile, s: LiveSession, event: GameEvent): void {
  const oldDay = utcDayNumber(s.started_at)
  const oldSeconds = sessionSeconds(s)
  if (event.ts < s.started_at) s.started_at = event.ts
  if (event.ts > s.last_event_at) s.last_event_at = event.ts
  if (event.type === 'session_end') s.ended_at = Math.max(s.ended_at ?? 0, event.ts, s.last_event_at)
  s.events++
  s.touched = true
  const newDay = utcDayNumber(s.started_at)
  const newSeconds = sessionSeconds(s)
  if (newDay !== oldDay) {
    dayCounters(st, oldDay).sessions--
    dayCounters(st, oldDay).session_seconds -= oldSeconds
    dayCounters(st, newDay).sessions++
    profileDims(st, profile, oldDay, (c) => c.sessions--)
    profileDims(st, profile, newDay, (c) => c.sessions++)
    dayCounters(st, newDay).session_seconds += newSeconds
  } else dayCounters(st, newDay).session_seconds += newSeconds - oldSeconds
}

function startSession(st: FoldState, profile: LiveProfile, event: GameEvent): LiveSession {
  const s: LiveSession = {
    id: st.newSessionId(event.ts),
    player_id: event.playerId,
    session_id: event.sessionId,
    started_at: event.ts,
    last_event_at: event.ts,
    ended_at: event.type === 'session_end' ? event.ts : null,
    events: 1,
    isNew: true,
    touched: true,
    loadedStart: event.ts,
  }
  st.sessions.set(s.id, s)
  dayCounters(st, event.day).sessions++
  profileDims(st, profile, event.day, (c) => c.sessions++)
  profile.session_count++
  if (event.sessionId) st.bySid.set(pairKey(event.playerId, event.sessionId), s)
  return s
}

/** insert: new; start: started_at moved (an earlier event); update: the rest. */
export function sessionWrites(st: FoldState): SessionWrite[] {
  return [...st.sessions.values()]
    .filter((s) => s.touched)
    .map((s) => ({
      row: strip<SessionRow>(s, 'isNew', 'touched', 'loadedStart'),
      write: s.isNew ? 'insert' : s.started_at !== s.loadedStart ? 'start' : 'update',
    }))
}
