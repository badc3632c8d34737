/** Web games send events from their own origin: CORS on the ingestion route (contract, "CORS on ingestion"). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GameWithSecrets } from '../../../../src/contract/games.js'
import { createTestApp, type TestApp } from '../../../support/app.js'
import { batch, createGame, event, send, type SendOpts } from '../../../support/gaming.js'

const ORIGIN = 'https://play.example-game.com'
const ALLOWED = [
  'authorization',
  'content-type',
  'content-encoding',
  'x-game-id',
  'x-organization-id',
  'x-signature',
  'x-timestamp',
]

let t: TestApp
let game: GameWithSecrets
let o: SendOpts
beforeAll(async () => {
  // Per-IP window of 5 requests: the fifth-plus-one answer is the shared limiter's 429.
  t = await createTestApp({
    rateLimitPerIp: 5,
    ingestRateLimitPerGame: 100_000,
    ingestRateLimitPerClient: 100_000,
  })
  game = await createGame(t)
  o = { game, orgId: t.orgId, headers: { origin: ORIGIN } }
})
afterAll(() => t.close())

const preflight = (requestHeaders: string) =>
  t.app.inject({
    method: 'OPTIONS',
    url: '/api/v1/gaming/events',
    headers: {
      origin: ORIGIN,
      'access-control-request-method': 'POST',
      'access-control-request-headers': requestHeaders,
    },
  })

describe('CORS on POST /api/v1/gaming/events', () => {
  it('answers a preflight from any origin with the SDK headers allowed', async () => {
    const res = await preflight(ALLOWED.join(','))
    expect(res.statusCode).toBe(204)
    expect(res.headers['access-control-allow-origin']).toBe('*')
    expect(String(res.headers['access-control-allow-methods'])).toContain('POST')
    const allowed = String(res.headers['access-control-allow-headers'])
      .split(',')
      .map((h) => h.trim().toLowerCase())
    expect(allowed.sort()).toEqual([...ALLOWED].sort())
    expect(res.body).toBe('')
  })

  it('an accepted batch and a refused one both carry Access-Control-Allow-Origin and expose Retry-After', async () => {
    const ok = await send(t, batch(t, [event(t)]), o)
    expect(ok.statusCode).toBe(202)
    expect(ok.headers['access-control-allow-origin']).toBe('*')

    const wrongKey = await send(t, batch(t, [event(t)]), { ...o, key: 'gsk_wrong' })
    expect(wrongKey.statusCode).toBe(401)
    expect(wrongKey.headers['access-control-allow-origin']).toBe('*')
    expect(wrongKey.json()).toMatchObject({ error: 'Unauthorized' })

    const exposed = String(ok.headers['access-control-expose-headers']).toLowerCase()
    expect(exposed).toContain('retry-after')
    expect(exposed).toContain('date') // the SDK corrects a device clock from it
    expect(exposed).toContain('x-ratelimit-remaining')
  })

  it("the per-IP window's 429 is readable by the page too (it tells the SDK when to retry)", async () => {
    let res = await send(t, batch(t, [event(t)]), o)
    for (let i = 0; i < 10 && res.statusCode !== 429; i++) res = await send(t, batch(t, [event(t)]), o)
    expect(res.statusCode).toBe(429)
    expect(res.headers['access-control-allow-origin']).toBe('*')
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0)
  })

  it('other API routes stay without CORS (API keys are not for browsers)', async () => {
    const res = await t.app.inject({ method: 'OPTIONS', url: '/api/use/links', headers: { origin: ORIGIN } })
    expect(res.headers['access-control-allow-origin']).toBeUndefined()
    const get = await t.app.inject({ method: 'GET', url: '/api/use/links', headers: { origin: ORIGIN } })
    expect(get.headers['access-control-allow-origin']).toBeUndefined()
  })
})
