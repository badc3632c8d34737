/** Session rules of the storage layer: session_end, 30 minutes of inactivity, events without session_id. */
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { GameWithSecrets } from '../../../../src/contract/games.js'
import { createTestApp, type TestApp, sqlRows } from '../../../support/app.js'
import { batch, createGame, event, send } from '../../../support/gaming.js'

let t: TestApp
let game: GameWithSecrets
beforeAll(async () => {
  t = await createTestApp()
  game = await createGame(t)
})
afterAll(() => t.close())

const MIN = 60_000
const at = (ms: number) => new Date(ms).toISOString()
const sessions = async (player: string) =>
  (await sqlRows(
    t,
    'SELECT session_id, started_at, last_event_at, ended_at, events FROM game_sessions WHERE player_id = ? ORDER BY started_at',
    player,
  )) as Array<{
    session_id: string | null
    started_at: number
    last_event_at: number
    ended_at: number | null
    events: number
  }>

it('30 minutes without events end a session; session_end closes it; events without session_id join the current one', async () => {
  const t0 = t.clock.now() - 3 * 3_600_000
  const e = (min: number, over: Record<string, unknown> = {}) =>
    event(t, { player_id: 'sessions-1', timestamp: at(t0 + min * MIN), ...over })
  const res = await send(
    t,
    batch(t, [
      e(0, { event_type: 'session_start', session_id: 'a' }),
      e(10, { session_id: undefined }),
      e(40, { session_id: 'a' }), // exactly 30 min after the last event: same session
      e(71, { session_id: 'a' }), // 31 min later: a new session with the same id
      e(80, { event_type: 'session_end', session_id: 'a' }),
      e(85, { session_id: undefined }), // after the end: a session of its own
    ]),
    { game, orgId: t.orgId },
  )
  expect(res.statusCode, res.body).toBe(202)
  expect(res.json()).toMatchObject({ accepted: 6, duplicates: 0, rejected: 0, errors: [] })
  const s = await sessions('sessions-1')
  expect(
    s.map((x) => [x.session_id, (x.started_at - t0) / MIN, (x.last_event_at - t0) / MIN, x.events]),
  ).toEqual([
    ['a', 0, 40, 3],
    ['a', 71, 80, 2],
    [null, 85, 85, 1],
  ])
  expect(s[1]!.ended_at).toBe(t0 + 80 * MIN)
  const p = (
    await sqlRows(t, "SELECT session_count FROM game_players WHERE player_id = 'sessions-1'")
  )[0] as {
    session_count: number
  }
  expect(p.session_count).toBe(3)
  const d = (await sqlRows(t, 'SELECT SUM(sessions) AS n, SUM(session_seconds) AS s FROM game_daily'))[0] as {
    n: number
    s: number
  }
  expect(d).toEqual({ n: 3, s: (40 + 9) * 60 })
})
