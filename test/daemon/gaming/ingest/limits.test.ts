/**
 * The per-game ingestion limit counts authenticated requests only: the SDK key
 * ships inside every game client, so requests that fail the signature must not use up the game's
 * window; they are throttled by the per-IP window instead.
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { GameWithSecrets } from '../../../../src/contract/games.js'
import { createTestApp, type TestApp } from '../../../support/app.js'
import { accepted, batch, event, send, sign, storedEvents, type SendOpts } from '../../../support/gaming.js'
import { createGame } from '../../../support/gaming.js'

const ATTACKER = '203.0.113.7'
const PLAYER = '198.51.100.2'

let t: TestApp
afterEach(() => t.close())

/** The whole answer of a batch of one new event: accepted and nothing else. */
const ONE_ACCEPTED = { accepted: 1, flagged: 0, blocked: 0, duplicates: 0, rejected: 0, errors: [] }

const limits = (res: { headers: Record<string, unknown> }) => ({
  limit: res.headers['x-ratelimit-limit'],
  remaining: res.headers['x-ratelimit-remaining'],
  reset: res.headers['x-ratelimit-reset'],
})

describe('per-game limit after authentication', () => {
  let game: GameWithSecrets
  let o: SendOpts

  async function setup(hmacRequired: boolean) {
    t = await createTestApp({ ingestRateLimitPerGame: 3, rateLimitPerIp: 12 })
    game = await createGame(t, { hmacRequired, replayWindowSeconds: 60 })
    o = { game, orgId: t.orgId }
  }

  it('unsigned, badly signed and stale requests never use up the game window; the IP is throttled', async () => {
    await setup(true)
    const b = () => batch(t, [event(t)])
    const stale = String(t.clock.now() - 61_000)
    const failures: Array<[Partial<SendOpts>, number, string]> = [
      [{}, 401, 'Unauthorized'],
      [{ sign: { signature: `sha256=${'0'.repeat(64)}` } }, 401, 'Unauthorized'],
      [{ sign: { secret: 'not-the-signing-secret' } }, 401, 'Unauthorized'],
      [{ sign: { timestamp: stale } }, 400, 'StaleBatch'],
    ]
    // 3 rounds of 4 failures: 12 requests, the whole per-IP window, 4 times the game's limit.
    for (let round = 0; round < 3; round++)
      for (const [variant, status, error] of failures) {
        const res = await send(t, b(), { ...o, ...variant, ip: ATTACKER })
        expect(res.statusCode, res.body).toBe(status)
        expect(res.json()).toMatchObject({ error, statusCode: status })
        // Counted in the per-IP window, whose figures the headers show.
        expect(limits(res).limit).toBe('12')
      }
    const blocked = await send(t, b(), { ...o, ip: ATTACKER })
    expect(blocked.statusCode).toBe(429)
    expect(blocked.json()).toMatchObject({
      error: 'RateLimitExceeded',
      message: expect.stringMatching(/per IP/),
    })
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0)
    expect(limits(blocked)).toMatchObject({ limit: '12', remaining: '0' })

    // The real game, from its players' addresses, still has its whole window.
    for (let i = 0; i < 3; i++) {
      const sent = b()
      const res = await send(t, sent, { ...o, sign: true, ip: `${PLAYER.slice(0, -1)}${i + 2}` })
      expect(accepted(res)).toEqual({ batchId: sent.batch_id, ...ONE_ACCEPTED })
      expect(limits(res)).toEqual({
        limit: '3',
        remaining: String(2 - i),
        reset: String(Math.ceil((Math.floor(t.clock.now() / 60_000) + 1) * 60)),
      })
    }
    // Only the three accepted batches stored anything.
    expect(await storedEvents(t, game)).toBe(3)
  })

  it('signed requests are limited per game at the boundary: the 4th of 3 gets 429 with Retry-After', async () => {
    await setup(true)
    for (let i = 0; i < 3; i++) {
      const sent = batch(t, [event(t)])
      const res = await send(t, sent, { ...o, sign: true, ip: PLAYER })
      expect(accepted(res)).toEqual({ batchId: sent.batch_id, ...ONE_ACCEPTED })
      expect(limits(res)).toMatchObject({ limit: '3', remaining: String(2 - i) })
    }
    const over = await send(t, batch(t, [event(t)]), { ...o, sign: true, ip: PLAYER })
    expect(over.statusCode).toBe(429)
    expect(over.json()).toMatchObject({
      error: 'RateLimitExceeded',
      statusCode: 429,
      message: expect.stringMatching(/game-wide ceiling: 3 requests per minute/),
      path: '/api/v1/gaming/events',
    })
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0)
    expect(limits(over)).toMatchObject({ limit: '3', remaining: '0' })
    // A full window refuses before the signature is even looked at.
    const unsigned = await send(t, batch(t, [event(t)]), { ...o, ip: PLAYER })
    expect(unsigned.statusCode).toBe(429)
    t.clock.advance(60_000)
    const nextBatch = batch(t, [event(t)])
    const next = await send(t, nextBatch, { ...o, sign: true, ip: PLAYER })
    expect(accepted(next)).toEqual({ batchId: nextBatch.batch_id, ...ONE_ACCEPTED })
    expect(limits(next)).toMatchObject({ limit: '3', remaining: '2' })
    expect(await storedEvents(t, game)).toBe(4)
  })

  it('a game without HMAC is authenticated by its SDK key: a wrong key never counts', async () => {
    await setup(false)
    for (let i = 0; i < 5; i++) {
      const res = await send(t, batch(t, [event(t)]), { ...o, key: 'sdk_wrongwrongwrongwrongwrongwrongwr' })
      expect(res.statusCode).toBe(401)
    }
    for (let i = 0; i < 3; i++) {
      const sent = batch(t, [event(t)])
      const res = await send(t, sent, o)
      expect(accepted(res)).toEqual({ batchId: sent.batch_id, ...ONE_ACCEPTED })
      expect(limits(res)).toMatchObject({ limit: '3', remaining: String(2 - i) })
    }
    expect((await send(t, batch(t, [event(t)]), o)).statusCode).toBe(429)
    expect(await storedEvents(t, game)).toBe(3)
  })

  it('the signature covers the body as sent: a valid one over another body is refused, uncounted', async () => {
    await setup(true)
    const ts = String(t.clock.now())
    const other = Buffer.from(JSON.stringify(batch(t, [event(t)])))
    for (let i = 0; i < 4; i++) {
      const res = await send(t, batch(t, [event(t)]), {
        ...o,
        sign: { timestamp: ts, signature: sign(game.signingSecret, ts, other) },
      })
      expect(res.statusCode).toBe(401)
    }
    const okBatch = batch(t, [event(t)])
    const ok = await send(t, okBatch, { ...o, sign: true })
    expect(accepted(ok)).toEqual({ batchId: okBatch.batch_id, ...ONE_ACCEPTED })
    expect(limits(ok)).toMatchObject({ limit: '3', remaining: '2' })
    expect(await storedEvents(t, game)).toBe(1)
  })
})
