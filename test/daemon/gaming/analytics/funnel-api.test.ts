/**
 * The funnel route's rules on small hand-made games: steps sharing a millisecond, the window's
 * edge, data conditions on numbers and text, and bad input (a 400 naming the field), another
 * organization's game (404), the raw retention (400 naming it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GameWithSecrets } from '../../../../src/contract/games.js'
import type { Funnel } from '../../../../src/contract/gaming-funnel.js'
import { createTestApp, type TestApp } from '../../../support/app.js'
import { accepted, batch, createGame, event, send } from '../../../support/gaming.js'

const HOUR = 3_600_000
let t: TestApp
let game: GameWithSecrets
let base: number

beforeAll(async () => {
  t = await createTestApp({ ingestRateLimitPerGame: 100_000, ingestRateLimitPerClient: 100_000 })
  t.clock.set(Date.parse('2026-11-20T23:00:00.000Z'))
  game = await createGame(t)
  base = t.clock.now() - 20 * HOUR
  const at = (ms: number, player_id: string, event_type: string, data: Record<string, unknown> = {}) =>
    event(t, { player_id, event_type, timestamp: new Date(ms).toISOString(), data })
  const events = [
    // The same millisecond, the later step sent first.
    at(base, 'same', 's_b'),
    at(base, 'same', 's_a'),
    // One event counts for one step: r_a twice needs two events.
    at(base, 'twice', 'r_a'),
    at(base, 'twice', 'r_a'),
    at(base, 'once', 'r_a'),
    // The window's edge: exactly 1 h after step 1 counts, 1 ms more does not.
    at(base, 'edge-in', 'w_a'),
    at(base + HOUR, 'edge-in', 'w_b'),
    at(base, 'edge-out', 'w_a'),
    at(base + HOUR + 1, 'edge-out', 'w_b'),
    // Conditions: level 3 as a number and as text match level=3; 3.5, "03", an object do not.
    ...[3, '3', 3.5, '03', { v: 3 }, 4].flatMap((level, i) => [
      at(base, `c${i}`, 'c_start'),
      at(base + 60_000 * (i + 1), `c${i}`, 'level_complete', { level }),
    ]),
    // Booleans against 1 / 0 / true, and an object against the same text.
    ...[true, 1, 'true', false, 0, { v: 1 }, '{"v":1}', [1]].flatMap((flag, i) => [
      at(base, `f${i}`, 'f_start'),
      at(base + 60_000, `f${i}`, 'f_done', { flag }),
    ]),
  ]
  accepted(await send(t, batch(t, events), { game, orgId: t.orgId }))
})
afterAll(() => t.close())

const url = (query: string, slug = game.id) => `/api/v1/gaming/analytics/funnel?gameId=${slug}&${query}`
async function funnel(query: string): Promise<Funnel> {
  const res = await t.call('GET', url(query))
  expect(res.statusCode, res.body).toBe(200)
  return res.json<Funnel>()
}
const players = (f: Funnel) => f.data.map((s) => s.players)

describe('what counts as a step', () => {
  it('a step at the same millisecond as the previous one counts, whichever was sent first', async () => {
    const ab = await funnel('steps=s_a,s_b')
    expect(players(ab)).toEqual([1, 1])
    expect(ab.data[1]!.medianSecondsFromPrevious).toBe(0)
    expect(players(await funnel('steps=s_b,s_a'))).toEqual([1, 1])
  })

  it('one event counts for one step only', async () => {
    const f = await funnel('steps=r_a,r_a')
    expect(players(f)).toEqual([2, 1])
    expect(f.data[1]).toMatchObject({ conversion: 0.5, stepConversion: 0.5 })
  })

  it('exactly at the end of the window passes, 1 ms later fails', async () => {
    const f = await funnel('steps=w_a,w_b&window=1h')
    expect(players(f)).toEqual([2, 1])
    expect(f.data[1]!.medianSecondsFromPrevious).toBe(3600)
    expect(players(await funnel('steps=w_a,w_b&window=1d'))).toEqual([2, 2])
  })

  it('level=3 matches the number 3 and the text "3", not 3.5, "03" or an object', async () => {
    const f = await funnel('steps=c_start,level_complete:level=3')
    expect(f.data[1]).toEqual({
      step: 2,
      eventType: 'level_complete',
      condition: 'level=3',
      players: 2,
      conversion: round4(2 / 6),
      stepConversion: round4(2 / 6),
      // c0 after 60 s, c1 after 120 s.
      medianSecondsFromPrevious: 90,
    })
    expect(players(await funnel('steps=c_start,level_complete:level=3.5'))).toEqual([6, 1])
  })

  it('spaces around the field, the = and the value are left out, as around the steps', async () => {
    const f = await funnel(`steps=${encodeURIComponent('c_start, level_complete : level = 3 ')}`)
    expect(f.data[1]).toMatchObject({ eventType: 'level_complete', condition: 'level=3', players: 2 })
  })

  it('1 and 0 match numbers, not booleans; true matches the boolean and the text; {…} only the text', async () => {
    const done = async (value: string) =>
      (await funnel(`steps=f_start,${encodeURIComponent(`f_done:flag=${value}`)}`)).data[1]!.players
    expect(await done('1')).toBe(1)
    expect(await done('0')).toBe(1)
    expect(await done('true')).toBe(2)
    expect(await done('false')).toBe(1)
    expect(await done('{"v":1}')).toBe(1)
    expect(await done('[1]')).toBe(0)
  })

  it('step 1 has conversion 1 and no median; a step nobody reached has a null step conversion after it', async () => {
    const f = await funnel('steps=w_a,nothing_here,w_b')
    expect(f.data[0]).toMatchObject({
      players: 2,
      conversion: 1,
      stepConversion: 1,
      medianSecondsFromPrevious: null,
    })
    expect(f.data[1]).toMatchObject({ players: 0, conversion: 0, stepConversion: 0 })
    expect(f.data[2]).toMatchObject({
      players: 0,
      conversion: 0,
      stepConversion: null,
      medianSecondsFromPrevious: null,
    })
    const none = await funnel('steps=nothing_here,w_b')
    expect(none.data[0]).toMatchObject({ players: 0, conversion: null, stepConversion: null })
  })
})

const round4 = (x: number) => Math.round(x * 1e4) / 1e4

describe('bad input', () => {
  const status = async (query: string) => {
    const res = await t.call('GET', url(query))
    return { status: res.statusCode, body: res.json<{ error?: { message: string }; message?: string }>() }
  }
  it('2 to 10 steps: 1 and 11 are a 400 naming steps', async () => {
    const steps = (n: number) => Array.from({ length: n }, (_, i) => `s${i}`).join(',')
    expect((await status(`steps=${steps(1)}`)).status).toBe(400)
    expect((await status(`steps=${steps(2)}`)).status).toBe(200)
    expect((await status(`steps=${steps(10)}`)).status).toBe(200)
    const eleven = await status(`steps=${steps(11)}`)
    expect(eleven.status).toBe(400)
    expect(JSON.stringify(eleven.body)).toContain('steps')
  })

  it.each(['a,', 'a,1b', 'a,b:=3', 'a,b:lvl=', 'a,b=3', 'a,,b'])('steps=%s is a 400', async (steps) => {
    const res = await status(`steps=${encodeURIComponent(steps)}`)
    expect(res.status).toBe(400)
    expect(JSON.stringify(res.body)).toContain('steps')
  })

  it('a step ending with ":" (a condition left empty) is a 400 naming that step', async () => {
    for (const [steps, n] of [
      ['level_start:,level_complete', 1],
      ['level_start, level_complete : ', 2],
    ] as const) {
      const res = await status(`steps=${encodeURIComponent(steps)}`)
      expect(res.status, steps).toBe(400)
      const message = `step ${n} has an empty condition after ':': write type:field=value, or the type alone`
      expect(res.body).toMatchObject({ message: `steps: ${message}`, details: [{ field: 'steps', message }] })
    }
  })

  it('an event type longer than an event can have (64) is a 400, as returnEvent of retention', async () => {
    expect((await status(`steps=a,${'b'.repeat(64)}`)).status).toBe(200)
    const res = await status(`steps=a,${'b'.repeat(65)}:level=3`)
    expect(res.status).toBe(400)
    expect(res.body.message).toBe(
      `steps: step 2: "${'b'.repeat(65)}" is not an event type (a letter, then letters, digits, _ . : -; up to 64)`,
    )
  })

  it('an unknown window or groupBy is a 400; a missing gameId or steps too', async () => {
    expect((await status('steps=a,b&window=2d')).status).toBe(400)
    expect((await status('steps=a,b&groupBy=device')).status).toBe(400)
    expect((await t.call('GET', '/api/v1/gaming/analytics/funnel?steps=a,b')).statusCode).toBe(400)
    expect((await status('window=1d')).status).toBe(400)
  })

  it("a range older than the game's raw retention is a 400 naming it", async () => {
    const res = await status('steps=a,b&startDate=2026-10-01&endDate=2026-10-05')
    expect(res.status).toBe(400)
    expect(JSON.stringify(res.body)).toContain('rawRetentionDays')
    expect(JSON.stringify(res.body)).toContain('30 days')
  })

  it('without startDate the range starts within the raw retention', async () => {
    const short = await createGame(t, { rawRetentionDays: 7 })
    const res = await t.call('GET', url('steps=a,b', short.id))
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json<Funnel>().range).toEqual({ startDate: '2026-11-14', endDate: '2026-11-20' })
  })

  it("another organization's game is a 404; a key without analytics:read a 403", async () => {
    const other = await t.createOrg('other')
    expect((await t.call('GET', url('steps=a,b'), { key: other.ownerKey })).statusCode).toBe(404)
    const key = await t.createKey({ permissions: ['links:read'] })
    expect((await t.call('GET', url('steps=a,b'), { key: key.key })).statusCode).toBe(403)
  })
})
