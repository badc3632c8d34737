/** The sessions layer of the fold: joining, starting and moving sessions, and their day counters. */
import { describe, expect, it } from 'vitest'
import {
  foldSession,
  sessionSeconds,
  sessionWrites,
} from '../../../../daemon/modules/gaming/storage/fold/sessions.js'
import type { GameEvent, SessionRow } from '../../../../daemon/modules/gaming/storage/types.js'
import { D, DAY, MIN, T0, ev, live, profile, snapshot, state } from './fold-fixtures.js'

const rows = (st: ReturnType<typeof state>, from = T0) =>
  sessionWrites(st).map(({ row: s, write }) => [
    write,
    s.id,
    s.session_id,
    (s.started_at - from) / MIN,
    (s.last_event_at - from) / MIN,
    s.ended_at === null ? null : (s.ended_at - from) / MIN,
    s.events,
  ])

describe('fold: sessions', () => {
  it('30 minutes without events or a session_end start a new session; events without an id join the current one', () => {
    const st = state()
    const p = live(profile({ current_session_id: null }), false)
    const at = (min: number, over: Partial<GameEvent> = {}) =>
      foldSession(st, p, ev({ ts: T0 + min * MIN, ...over }))
    at(0, { type: 'session_start', sessionId: 'a' })
    at(10, { sessionId: null })
    at(40, { sessionId: 'a' }) // exactly 30 min after the last event: same session
    at(71, { sessionId: 'a' }) // 31 min later: a new session with the same id
    at(80, { type: 'session_end', sessionId: 'a' })
    at(85, { sessionId: null }) // after the end: a session of its own
    const id = (min: number, n: number) => `new-${T0 + min * MIN}-${n}`
    expect(rows(st)).toEqual([
      ['insert', id(0, 1), 'a', 0, 40, null, 3],
      ['insert', id(71, 2), 'a', 71, 80, 80, 2],
      ['insert', id(85, 3), null, 85, 85, null, 1],
    ])
    expect([st.daily.get(D)?.sessions, st.daily.get(D)?.session_seconds]).toEqual([3, (40 + 9) * 60])
    expect([...st.dims.values()].map((d) => [d.dim, d.counters.sessions])).toEqual([
      ['platform', 3],
      ['country', 3],
      ['affiliate', 3],
      ['campaign', 3],
      ['source', 3],
      ['medium', 3],
      ['link', 3],
    ])
    expect([p.session_count, p.current_session_id]).toEqual([5, id(85, 3)])
  })

  it("a known player's stored sessions: an earlier event moves one to the day before (start); the other is updated", () => {
    const midnight = D * DAY
    const old: SessionRow = {
      id: 'old',
      player_id: 'p1',
      session_id: 'a',
      started_at: midnight + 10 * MIN,
      last_event_at: midnight + 20 * MIN,
      ended_at: null,
      events: 2,
    }
    const other: SessionRow = {
      ...old,
      id: 'other',
      session_id: 'b',
      started_at: T0 - 20 * MIN,
      last_event_at: T0 - 10 * MIN,
    }
    const st = state(
      snapshot({
        sessionsById: new Map([['old', old]]),
        sessionsBySid: new Map([
          ['p1\na', old],
          ['p1\nb', other],
        ]),
      }),
    )
    const p = live(profile({ current_session_id: 'old' }))
    foldSession(st, p, ev({ ts: midnight - 5 * MIN, sessionId: null })) // 23:55 the day before
    foldSession(st, p, ev({ ts: midnight + 25 * MIN, sessionId: 'a' }))
    foldSession(st, p, ev({ ts: T0, sessionId: 'b' }))
    expect(rows(st, midnight)).toEqual([
      ['start', 'old', 'a', -5, 25, null, 4],
      ['update', 'other', 'b', 8 * 60 - 20, 8 * 60, null, 3],
    ])
    expect([D - 1, D].map((d) => [st.daily.get(d)?.sessions, st.daily.get(d)?.session_seconds])).toEqual([
      [1, 30 * 60],
      [-1, 0], // 'old' leaves with its 10 minutes; 'other' gains 10
    ])
    expect([p.session_count, p.current_session_id]).toEqual([2, 'other'])
  })

  it('an ended session takes no later event; its seconds run to its end', () => {
    const ended: SessionRow = {
      id: 'done',
      player_id: 'p1',
      session_id: 'a',
      started_at: T0,
      last_event_at: T0 + MIN,
      ended_at: T0 + 2 * MIN,
      events: 2,
    }
    const st = state(snapshot({ sessionsBySid: new Map([['p1\na', ended]]) }))
    foldSession(st, live(profile()), ev({ ts: T0 + 3 * MIN, sessionId: 'a' }))
    expect(rows(st).map((r) => r[0])).toEqual(['insert'])
    expect([sessionSeconds(ended), sessionSeconds({ ...ended, ended_at: null })]).toEqual([120, 60])
  })
})
