/**
 * The ingestion's two windows (contract "Ingestion rate"): the spec's 1,000 requests a minute
 * count per game AND client address, a game-wide ceiling guards the server, and a 429 names the
 * window that refused, with that window's headers. A replayed batch_id (answered from its stored
 * first response) gives its count back: replaying one captured signed request no longer locks
 * the game out; the replays are throttled by the per-IP window instead.
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { GameWithSecrets } from '../../../../src/contract/games.js'
import { createTestApp, type TestApp } from '../../../support/app.js'
import {
  accepted,
  batch,
  createGame,
  event,
  ingestionHeaders,
  send,
  storedEvents,
  type SendOpts,
} from '../../../support/gaming.js'

let t: TestApp
afterEach(() => t.close())

const ONE = { accepted: 1, flagged: 0, blocked: 0, duplicates: 0, rejected: 0, errors: [] }
const limits = (res: { headers: Record<string, unknown> }) => ({
  limit: res.headers['x-ratelimit-limit'],
  remaining: res.headers['x-ratelimit-remaining'],
})
const address = (i: number) => `198.51.100.${i}`

async function setup(perClient: number, perGame: number, more: Record<string, unknown> = {}) {
  t = await createTestApp({ ingestRateLimitPerClient: perClient, ingestRateLimitPerGame: perGame, ...more })
}

describe('ingestion rate: per game and client address, and a game-wide ceiling', () => {
  it('one address is refused past its 3 a minute; another address of the game is not', async () => {
    await setup(3, 100)
    const game = await createGame(t)
    const o: SendOpts = { game, orgId: t.orgId }
    for (let i = 0; i < 3; i++) {
      const sent = batch(t, [event(t)])
      const res = await send(t, sent, { ...o, ip: address(1) })
      expect(accepted(res)).toEqual({ batchId: sent.batch_id, ...ONE })
      expect(limits(res)).toEqual({ limit: '3', remaining: String(2 - i) })
    }
    const over = await send(t, batch(t, [event(t)]), { ...o, ip: address(1) })
    expect(over.statusCode).toBe(429)
    expect(over.json()).toMatchObject({
      error: 'RateLimitExceeded',
      message: expect.stringMatching(
        /^rate limit exceeded \(per game and client address: 3 requests per minute\)/,
      ),
      details: [{ field: 'rateLimit', message: 'per game and client address' }],
    })
    expect(limits(over)).toEqual({ limit: '3', remaining: '0' })
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0)

    // Another sender of the same game has its own window.
    const other = await send(t, batch(t, [event(t)]), { ...o, ip: address(2) })
    expect(accepted(other)).toMatchObject(ONE)
    expect(limits(other)).toEqual({ limit: '3', remaining: '2' })
    // Another game from the first address too.
    const game2 = await createGame(t)
    expect(accepted(await send(t, batch(t, [event(t)]), { game: game2, orgId: t.orgId, ip: address(1) })))
    expect(await storedEvents(t, game)).toBe(4)
  })

  it('an IPv6 sender counts per /64: another address of its block is the same client', async () => {
    await setup(2, 100)
    const game = await createGame(t)
    const o: SendOpts = { game, orgId: t.orgId }
    for (const ip of ['2001:db8:5:6::1', '2001:db8:5:6::2'])
      expect(accepted(await send(t, batch(t, [event(t)]), { ...o, ip }))).toMatchObject(ONE)
    const over = await send(t, batch(t, [event(t)]), { ...o, ip: '2001:db8:5:6:ffff::3' })
    expect(over.statusCode).toBe(429)
    expect(over.json()).toMatchObject({
      details: [{ field: 'rateLimit', message: 'per game and client address' }],
    })
    expect(accepted(await send(t, batch(t, [event(t)]), { ...o, ip: '2001:db8:5:7::1' }))).toMatchObject(ONE)
    expect(await storedEvents(t, game)).toBe(3)
  })

  it('the game-wide ceiling refuses any address once the game is full; the 429 says so', async () => {
    await setup(3, 5)
    const game = await createGame(t)
    const o: SendOpts = { game, orgId: t.orgId }
    // Address 1 uses its 3 and is refused once: the refused request does not count in the game's.
    for (let i = 0; i < 3; i++) accepted(await send(t, batch(t, [event(t)]), { ...o, ip: address(1) }))
    expect((await send(t, batch(t, [event(t)]), { ...o, ip: address(1) })).statusCode).toBe(429)
    const second = await send(t, batch(t, [event(t)]), { ...o, ip: address(2) })
    // The game's window has the fewest left: 5 - 4.
    expect(limits(second)).toEqual({ limit: '5', remaining: '1' })
    accepted(await send(t, batch(t, [event(t)]), { ...o, ip: address(3) }))
    const full = await send(t, batch(t, [event(t)]), { ...o, ip: address(4) })
    expect(full.statusCode).toBe(429)
    expect(full.json()).toMatchObject({
      error: 'RateLimitExceeded',
      message: expect.stringMatching(/^rate limit exceeded \(game-wide ceiling: 5 requests per minute\)/),
      details: [{ field: 'rateLimit', message: 'game-wide ceiling' }],
    })
    expect(limits(full)).toEqual({ limit: '5', remaining: '0' })
    expect(await storedEvents(t, game)).toBe(5)
    t.clock.advance(60_000)
    accepted(await send(t, batch(t, [event(t)]), { ...o, ip: address(4) }))
  })

  it('SDK-shaped traffic: 4 senders of 100-event batches each get their own budget', async () => {
    await setup(10, 1_000)
    const game = await createGame(t)
    const statuses = { 202: 0, 429: 0 }
    for (let round = 0; round < 15; round++)
      for (let sender = 1; sender <= 4; sender++) {
        const events = Array.from({ length: 100 }, () => event(t, { player_id: `player-${sender}` }))
        const res = await send(t, batch(t, events), { game, orgId: t.orgId, ip: address(sender) })
        statuses[res.statusCode as 202 | 429]++
      }
    // 10 a sender: 40 of 60 batches, where one window for the whole game took 10.
    expect(statuses).toEqual({ 202: 40, 429: 20 })
  })
})

describe('a replayed batch_id', () => {
  it('a captured signed request replayed many times does not lock the game out', async () => {
    await setup(3, 3, { rateLimitPerIp: 8 })
    const game: GameWithSecrets = await createGame(t, { hmacRequired: true, replayWindowSeconds: 300 })
    const o: SendOpts = { game, orgId: t.orgId }
    const sent = batch(t, [event(t)])
    const wire = Buffer.from(JSON.stringify(sent))
    const timestamp = String(t.clock.now())
    const headers = ingestionHeaders(game, { secret: game.signingSecret, timestamp, wire })
    const first = await t.app.inject({
      method: 'POST',
      url: '/api/v1/gaming/events',
      headers,
      payload: wire,
      remoteAddress: address(1),
    })
    expect(accepted(first)).toEqual({ batchId: sent.batch_id, ...ONE })

    // The attacker replays the captured bytes: the first answer every time, until the attacker's
    // address uses up its per-IP window (8).
    const replay = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/gaming/events',
        headers,
        payload: wire,
        remoteAddress: address(66),
      })
    for (let i = 0; i < 8; i++) {
      const res = await replay()
      expect(res.statusCode, res.body).toBe(202)
      expect(res.body).toBe(first.body)
    }
    const throttled = await replay()
    expect(throttled.statusCode).toBe(429)
    expect(throttled.json()).toMatchObject({ message: expect.stringMatching(/per IP/) })

    // The game still has 2 of its 3: its players send on.
    for (let i = 0; i < 2; i++)
      accepted(await send(t, batch(t, [event(t)]), { ...o, sign: true, ip: address(10 + i) }))
    const full = await send(t, batch(t, [event(t)]), { ...o, sign: true, ip: address(20) })
    expect(full.json()).toMatchObject({ details: [{ field: 'rateLimit', message: 'game-wide ceiling' }] })
    expect(await storedEvents(t, game)).toBe(3)
  })

  it('an unsigned game: a retried batch gives its count back to the sender and the game', async () => {
    await setup(2, 100)
    const game = await createGame(t)
    const o: SendOpts = { game, orgId: t.orgId, ip: address(1) }
    const sent = batch(t, [event(t)])
    const first = accepted(await send(t, sent, o))
    for (let i = 0; i < 5; i++) expect(accepted(await send(t, sent, o))).toEqual(first)
    // The sender's window holds the first batch only.
    const next = await send(t, batch(t, [event(t)]), o)
    expect(accepted(next)).toMatchObject(ONE)
    expect(limits(next)).toEqual({ limit: '2', remaining: '0' })
  })
})
