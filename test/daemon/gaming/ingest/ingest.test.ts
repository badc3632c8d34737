/** Gaming ingestion: every rule at its boundary, against the real app and SQLite. */
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GameWithSecrets } from '../../../../src/contract/games.js'
import { createTestApp, type TestApp, count, sqlRows } from '../../../support/app.js'
import {
  accepted,
  batch,
  createGame,
  ingestionApp,
  event,
  send,
  storedEvents,
  type SendOpts,
} from '../../../support/gaming.js'

let t: TestApp
let game: GameWithSecrets
let o: SendOpts
beforeAll(async () => ({ t, game, o } = await ingestionApp()))
afterAll(() => t.close())

const result = accepted
const stored = (g = game) => storedEvents(t, g)

/** A batch whose JSON text is exactly `bytes` long (padding spread over events of < 10 KB). */
function batchOfSize(bytes: number) {
  const events = Array.from({ length: 120 }, () => event(t, { data: { pad: '' } }))
  const b = batch(t, events)
  const base = Buffer.byteLength(JSON.stringify(b))
  let missing = bytes - base
  for (const e of events) {
    const add = Math.min(missing, 9000)
    ;(e.data as { pad: string }).pad = 'x'.repeat(add)
    missing -= add
  }
  if (missing !== 0) throw new Error('cannot pad')
  const text = JSON.stringify(b)
  expect(Buffer.byteLength(text)).toBe(bytes)
  return text
}

/** An event whose JSON is exactly `bytes` long. */
function eventOfSize(bytes: number) {
  const e = event(t, { data: { pad: '' } })
  const pad = bytes - Buffer.byteLength(JSON.stringify(e))
  ;(e.data as { pad: string }).pad = 'y'.repeat(pad)
  expect(Buffer.byteLength(JSON.stringify(e))).toBe(bytes)
  return e
}

describe('authentication (SDK key, game and organization headers)', () => {
  it('accepts the SDK key with the game and organization headers; 202 after commit', async () => {
    const before = await stored()
    const r = result(await send(t, batch(t, [event(t), event(t)]), o))
    expect(r).toMatchObject({ accepted: 2, flagged: 0, blocked: 0, duplicates: 0, rejected: 0, errors: [] })
    expect(await stored()).toBe(before + 2)
  })

  it('401 for a missing or wrong key, unknown game, wrong or missing organization', async () => {
    const b = batch(t, [event(t)])
    const other = await t.createOrg('ingest-other')
    for (const variant of [
      { key: null },
      { key: 'sdk_wrongwrongwrongwrongwrongwrongwr' },
      { gameId: 'no-such-game' },
      { gameId: null },
      { organizationId: other.orgId },
      { organizationId: null },
      { headers: { authorization: 'Basic abc' }, key: null },
    ] as Partial<SendOpts>[]) {
      const res = await send(t, b, { ...o, ...variant })
      expect(res.statusCode, JSON.stringify(variant)).toBe(401)
      expect(res.json()).toMatchObject({ error: 'Unauthorized', statusCode: 401 })
    }
    // API keys are not SDK keys.
    expect((await send(t, b, { ...o, key: t.ownerKey })).statusCode).toBe(401)
  })

  it('after regeneration the old key is refused at once and the new one works', async () => {
    const g = await createGame(t)
    const res = await t.call('POST', `/api/v1/admin/games/${g.id}/sdk-key`)
    const regenerated = res.json<GameWithSecrets>()
    expect((await send(t, batch(t, [event(t)]), { game: g, orgId: t.orgId })).statusCode).toBe(401)
    result(await send(t, batch(t, [event(t)]), { game: regenerated, orgId: t.orgId }))
  })

  it('a key verified once: a wrong key of the game is still refused, and the old key after regeneration', async () => {
    const g = await createGame(t)
    result(await send(t, batch(t, [event(t)]), { game: g, orgId: t.orgId }))
    const wrong = { ...g, sdkKey: `${g.sdkKey.slice(0, -1)}${g.sdkKey.endsWith('a') ? 'b' : 'a'}` }
    expect((await send(t, batch(t, [event(t)]), { game: wrong, orgId: t.orgId })).statusCode).toBe(401)
    result(await send(t, batch(t, [event(t)]), { game: g, orgId: t.orgId }))
    const regenerated = (await t.call('POST', `/api/v1/admin/games/${g.id}/sdk-key`)).json<GameWithSecrets>()
    expect((await send(t, batch(t, [event(t)]), { game: g, orgId: t.orgId })).statusCode).toBe(401)
    result(await send(t, batch(t, [event(t)]), { game: regenerated, orgId: t.orgId }))
    expect(await stored(g)).toBe(3)
  })

  it('paused and archived games: 403 GamePaused / GameArchived, nothing stored', async () => {
    const g = await createGame(t)
    for (const [status, error] of [
      ['paused', 'GamePaused'],
      ['archived', 'GameArchived'],
    ] as const) {
      await t.call('PATCH', `/api/v1/admin/games/${g.id}`, { body: { status } })
      const res = await send(t, batch(t, [event(t)]), { game: g, orgId: t.orgId })
      expect(res.statusCode).toBe(403)
      expect(res.json()).toMatchObject({ error, statusCode: 403 })
    }
    expect(await stored(g)).toBe(0)
    await t.call('PATCH', `/api/v1/admin/games/${g.id}`, { body: { status: 'active' } })
    result(await send(t, batch(t, [event(t)]), { game: g, orgId: t.orgId }))
  })
})

describe('HMAC signing', () => {
  let g: GameWithSecrets
  let so: SendOpts
  beforeAll(async () => {
    g = await createGame(t, { hmacRequired: true, replayWindowSeconds: 60 })
    so = { game: g, orgId: t.orgId }
  })

  it('a good signature over <X-Timestamp>.<raw body> is accepted (also gzipped: the bytes sent)', async () => {
    const before = await stored(g)
    const plain = batch(t, [event(t)])
    expect(result(await send(t, plain, { ...so, sign: true }))).toMatchObject({
      batchId: plain.batch_id,
      accepted: 1,
      rejected: 0,
    })
    const zipped = batch(t, [event(t)])
    expect(result(await send(t, zipped, { ...so, sign: true, gzip: true }))).toMatchObject({
      batchId: zipped.batch_id,
      accepted: 1,
      rejected: 0,
    })
    expect(await stored(g)).toBe(before + 2)
  })

  it('missing, bad or wrong-secret signatures are 401; nothing stored', async () => {
    const before = await stored(g)
    const b = batch(t, [event(t)])
    expect((await send(t, b, so)).statusCode).toBe(401)
    expect((await send(t, b, { ...so, sign: { signature: 'sha256=' + '0'.repeat(64) } })).statusCode).toBe(
      401,
    )
    expect((await send(t, b, { ...so, sign: { secret: 'sig_other' } })).statusCode).toBe(401)
    const ts = String(t.clock.now())
    const res = await send(t, b, {
      ...so,
      headers: { 'x-signature': 'sha256=abc' },
      sign: { timestamp: ts, signature: 'sha256=abc' },
    })
    expect(res.json()).toMatchObject({ error: 'Unauthorized' })
    expect(await stored(g)).toBe(before)
  })

  it('X-Timestamp must lie within the replay window (60 s here): edges', async () => {
    const now = t.clock.now()
    result(await send(t, batch(t, [event(t)]), { ...so, sign: { timestamp: String(now - 60_000) } }))
    result(await send(t, batch(t, [event(t)]), { ...so, sign: { timestamp: String(now + 60_000) } }))
    for (const ts of [now - 60_001, now + 60_001]) {
      const res = await send(t, batch(t, [event(t)]), { ...so, sign: { timestamp: String(ts) } })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toMatchObject({ error: 'StaleBatch' })
    }
  })
})

describe('batch rules', () => {
  it('batch_timestamp within the replay window (default 300 s): edges', async () => {
    const now = t.clock.now()
    const at = (ms: number) => ({ batch_timestamp: new Date(ms).toISOString() })
    result(await send(t, batch(t, [event(t)], at(now - 300_000)), o))
    result(await send(t, batch(t, [event(t)], at(now + 300_000)), o))
    for (const ms of [now - 300_001, now + 300_001]) {
      const res = await send(t, batch(t, [event(t)], at(ms)), o)
      expect(res.statusCode).toBe(400)
      expect(res.json()).toMatchObject({ error: 'StaleBatch', statusCode: 400 })
    }
  })

  it('1,000 events are accepted, 1,001 are 413', async () => {
    const many = (n: number) => Array.from({ length: n }, () => event(t))
    expect(result(await send(t, batch(t, many(1000)), o)).accepted).toBe(1000)
    const res = await send(t, batch(t, many(1001)), o)
    expect(res.statusCode).toBe(413)
    expect(res.json()).toMatchObject({ error: 'PayloadTooLarge', statusCode: 413 })
  })

  it('a 1 MB body is accepted, one byte more is 413 (plain and gzipped)', async () => {
    expect(result(await send(t, batchOfSize(1_048_576), o)).accepted).toBe(120)
    expect((await send(t, batchOfSize(1_048_577), o)).statusCode).toBe(413)
    expect(result(await send(t, batchOfSize(1_048_576), { ...o, gzip: true })).accepted).toBe(120)
    expect((await send(t, batchOfSize(1_048_577), { ...o, gzip: true })).statusCode).toBe(413)
  })

  it('a gzip bomb is 413 without inflating it; broken gzip is 400; other encodings 415', async () => {
    const bomb = gzipSync(Buffer.alloc(50 * 1024 * 1024, 0x20))
    expect(bomb.length).toBeLessThan(1_048_576)
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/gaming/events',
      headers: {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        authorization: `Bearer ${game.sdkKey}`,
        'x-game-id': game.id,
        'x-organization-id': t.orgId,
      },
      payload: bomb,
    })
    expect(res.statusCode).toBe(413)
    const broken = await send(t, Buffer.from('not gzip'), { ...o, headers: { 'content-encoding': 'gzip' } })
    expect(broken.statusCode).toBe(400)
    const br = await send(t, batch(t, [event(t)]), { ...o, headers: { 'content-encoding': 'br' } })
    expect(br.statusCode).toBe(415)
  })

  it('malformed JSON or a missing batch field is 400 with details', async () => {
    expect((await send(t, '{"batch_id":', o)).json()).toMatchObject({
      error: 'ValidationError',
      statusCode: 400,
    })
    for (const field of ['batch_id', 'batch_timestamp', 'events']) {
      const b: Record<string, unknown> = batch(t, [event(t)])
      delete b[field]
      const res = await send(t, b, o)
      expect(res.statusCode).toBe(400)
      expect(res.json<{ details: { field: string }[] }>().details.map((d) => d.field)).toContain(field)
    }
    expect((await send(t, batch(t, [], { batch_id: 'not-a-uuid' }), o)).statusCode).toBe(400)
  })

  it('a repeated batch_id returns the first response and stores nothing again', async () => {
    const b = batch(t, [event(t), event(t)])
    const first = await send(t, b, o)
    const before = await stored()
    const again = await send(t, { ...b, events: [event(t)] }, o)
    expect(again.statusCode).toBe(202)
    expect(again.body).toBe(first.body)
    expect(accepted(first)).toMatchObject({ batchId: b.batch_id, accepted: 2, duplicates: 0, rejected: 0 })
    expect(await stored()).toBe(before)
    // After 24 h the batch id is new again.
    t.clock.advance(24 * 3_600_000 + 1)
    const later = result(
      await send(t, { ...b, batch_timestamp: new Date(t.clock.now()).toISOString(), events: [event(t)] }, o),
    )
    expect(later.accepted).toBe(1)
  })

  it('a repeated event_id (in another batch or the same) is counted in duplicates and stored once', async () => {
    const e = event(t)
    expect(result(await send(t, batch(t, [e]), o)).accepted).toBe(1)
    const r = result(await send(t, batch(t, [e, e, event(t)]), o))
    expect(r).toMatchObject({ accepted: 1, duplicates: 2 })
    expect(await count(t, 'game_events', 'event_id = ?', e.event_id)).toBe(1)
  })

  it('1,000 requests per minute per game, then 429 with Retry-After and the headers', async () => {
    const small = await createTestApp({ ingestRateLimitPerGame: 3 })
    try {
      const g = await createGame(small)
      const so = { game: g, orgId: small.orgId }
      for (let i = 0; i < 3; i++) {
        const res = await send(small, batch(small, [event(small)]), so)
        expect(res.statusCode).toBe(202)
        expect(res.json()).toMatchObject({ accepted: 1, duplicates: 0, rejected: 0, errors: [] })
        expect(res.headers['x-ratelimit-limit']).toBe('3')
        expect(res.headers['x-ratelimit-remaining']).toBe(String(2 - i))
      }
      const res = await send(small, batch(small, [event(small)]), so)
      expect(res.statusCode).toBe(429)
      expect(res.json()).toMatchObject({ error: 'RateLimitExceeded' })
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0)
      expect(res.headers['x-ratelimit-remaining']).toBe('0')
      small.clock.advance(60_000)
      expect((await send(small, batch(small, [event(small)]), so)).statusCode).toBe(202)
      // The three batches before the 429 and the one after it; the refused one stored nothing.
      expect(await storedEvents(small, g)).toBe(4)
    } finally {
      await small.close()
    }
  })
})

describe('per-event rules', () => {
  it('an event of 10,240 bytes is accepted, 10,241 is rejected with its reason', async () => {
    const r = result(await send(t, batch(t, [eventOfSize(10_240), eventOfSize(10_241)]), o))
    expect(r.accepted).toBe(1)
    expect(r.rejected).toBe(1)
    expect(r.errors).toEqual([expect.objectContaining({ index: 1, error: 'EventTooLarge' })])
  })

  it('an event’s country is data.country, else the one of the address the batch came from', async () => {
    const events = [
      event(t),
      event(t, { data: { country: 'de' } }),
      event(t),
      event(t, { data: { country: 'x' } }),
    ]
    result(await send(t, batch(t, events), { ...o, ip: '81.2.69.160' }))
    result(await send(t, batch(t, [event(t)]), { ...o, ip: '8.8.8.8' }))
    const rows = await sqlRows<{ event_id: string; country: string | null }>(
      t,
      'SELECT event_id, country FROM game_events',
    )
    const countryOf = new Map(rows.map((r) => [r.event_id, r.country]))
    expect(events.map((e) => countryOf.get(e.event_id))).toEqual(['GB', 'DE', 'GB', 'GB'])
    expect(countryOf.size).toBe(rows.length)
  })

  it('timestamps: 24 h old and +5 min accepted, 1 ms beyond either rejected', async () => {
    const now = t.clock.now()
    const at = (ms: number) => event(t, { timestamp: new Date(ms).toISOString() })
    const r = result(
      await send(
        t,
        batch(t, [at(now - 86_400_000), at(now + 300_000), at(now - 86_400_001), at(now + 300_001)]),
        o,
      ),
    )
    expect(r.accepted).toBe(2)
    expect(r.errors.map((e) => [e.index, e.error])).toEqual([
      [2, 'EventTooOld'],
      [3, 'EventInFuture'],
    ])
  })

  it('required fields, platform, session_id, purchases; custom types are accepted', async () => {
    const cases: [Record<string, unknown>, RegExp | null][] = [
      [{ event_id: undefined }, /event_id/],
      [{ event_type: undefined }, /event_type/],
      [{ timestamp: undefined }, /timestamp/],
      [{ player_id: undefined }, /player_id/],
      [{ event_id: 'abc' }, /UUID/],
      [{ platform: 'gameboy' }, /platform/],
      [{ timestamp: 'yesterday' }, /timestamp/],
      [{ event_type: 'session_start', session_id: undefined }, /session_id is required/],
      [{ event_type: 'session_end', session_id: undefined }, /session_id is required/],
      [{ event_type: 'purchase', data: { amount: 4.99 } }, /currency/],
      [{ event_type: 'purchase', data: { amount: -1, currency: 'USD' } }, /amount/],
      [{ event_type: 'purchase', data: { amount: 1, currency: 'XYZ' } }, /currency/],
      [{ event_type: 'subscription_renew', data: {} }, /amount/],
      [{ data: 'text' }, /data/],
      [{ event_type: 'purchase', data: { amount: 4.99, currency: 'EUR', exchange_rate: 1.08 } }, null],
      [{ event_type: 'purchase', data: { amount: 4.99, currency: 'EUR' } }, /exchange_rate.*USD per 1 EUR/],
      [
        { event_type: 'purchase', data: { amount: 4.99, currency: 'EUR', exchange_rate: 0 } },
        /exchange_rate/,
      ],
      [
        { event_type: 'purchase', data: { amount: 4.99, currency: 'EUR', exchange_rate: '1.1' } },
        /exchange_rate/,
      ],
      [{ event_type: 'purchase', data: { amount: 1, currency: 'USD', commission: -1 } }, /data\.commission/],
      [{ event_type: 'app_install', data: { cost: 'free' } }, /data\.cost/],
      [{ event_type: 'app_install', data: { cost: 2, currency: 'GBP' } }, /exchange_rate/],
      [{ event_type: 'app_install', data: { cost: 2.5 } }, null],
      [{ event_type: 'ad_watched', data: { placement: 'x' } }, null],
      [{ event_type: 'custom' }, null],
      [{ event_type: 'boss_defeated' }, null],
      [{ platform: undefined }, null],
    ]
    const events = cases.map(([over]) => {
      const e: Record<string, unknown> = { ...event(t) }
      for (const [k, v] of Object.entries(over))
        if (v === undefined) delete e[k]
        else e[k] = v
      return e
    })
    const r = result(await send(t, batch(t, [...events, 'not an object']), o))
    cases.forEach(([, re], i) => {
      const err = r.errors.find((e) => e.index === i)
      if (re === null) expect(err, `case ${i}`).toBeUndefined()
      else {
        expect(err, `case ${i}`).toBeDefined()
        expect(err!.error).toBe('InvalidEvent')
        expect(err!.message).toMatch(re)
      }
    })
    expect(r.errors.find((e) => e.index === cases.length)).toMatchObject({
      error: 'InvalidEvent',
      eventId: null,
    })
    const valid = cases.filter(([, re]) => re === null).length
    expect(r.accepted).toBe(valid)
    expect(r.rejected).toBe(cases.length - valid + 1)
  })
})

describe('the pipeline', () => {
  it('every event passes the stages; flag stores and marks, block stores nothing', async () => {
    const seen: string[] = []
    t.app.linkd.services.gaming.ingest.pipeline.use({
      judge(e) {
        seen.push(e.eventId)
        if (e.playerId === 'cheater') return 'block'
        if (e.playerId === 'suspect') return { verdict: 'flag', reasons: ['test rule'] }
        return 'accept'
      },
    })
    const events = [event(t, { player_id: 'cheater' }), event(t, { player_id: 'suspect' }), event(t)]
    const r = result(await send(t, batch(t, events), o))
    expect(seen).toEqual(events.map((e) => e.event_id))
    expect(r).toMatchObject({ accepted: 2, flagged: 1, blocked: 1, rejected: 0 })
    expect(await count(t, 'game_events', "player_id = 'cheater'")).toBe(0)
    expect(await count(t, 'game_players', "player_id = 'cheater'")).toBe(0)
    expect(await count(t, 'game_events', "player_id = 'suspect' AND verdict = 'flag'")).toBe(1)
  })
})

it('unknown body content type is 415; an empty body 400', async () => {
  const res = await send(t, 'x', { ...o, headers: { 'content-type': 'text/plain' } })
  expect(res.statusCode).toBe(415)
  const empty = await send(t, '', o)
  expect(empty.statusCode).toBe(400)
  expect(empty.json()).toMatchObject({ error: 'ValidationError' })
})
