/**
 * The web SDK in Node (memory queue), against a recording fetch: batching within the ingestion
 * limits, retries that keep the batch id, Retry-After and backoff, what is never retried, the
 * bounded queue, sessions, the click id, signatures, and the size of the minified bundle.
 */
import { createHmac, randomUUID } from 'node:crypto'
import { gunzipSync, gzipSync } from 'node:zlib'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { build } from 'esbuild'
import {
  backoffDelay,
  clockOffset,
  createClient,
  retryAfterMs,
  splitBatches,
  type ClientOptions,
  type SdkError,
  type SdkEvent,
} from '../../sdk/web/src/index.js'
import { MAX_BATCH_BYTES, MAX_EVENTS } from '../../sdk/web/src/core.js'

/** A version 7 (time-ordered) UUID. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
/** The Unix ms a version 7 UUID was made at. */
const msOf = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16)

interface Sent {
  url: string
  headers: Record<string, string>
  wire: Buffer
  body: { batch_id: string; batch_timestamp: string; events: SdkEvent[] }
}

/** A fetch that records each request and answers from `answers` in turn (then 202). */
function recorder(answers: Array<number | Error | [number, Record<string, string>, string?]> = []) {
  const sent: Sent[] = []
  const fetch = (async (url: string, init: RequestInit) => {
    const headers = init.headers as Record<string, string>
    const wire = Buffer.from(init.body as Uint8Array)
    const json = headers['content-encoding'] === 'gzip' ? gunzipSync(wire) : wire
    sent.push({ url, headers, wire, body: JSON.parse(json.toString()) })
    const a = answers.shift() ?? 202
    if (a instanceof Error) throw a
    const [status, h, body] = Array.isArray(a) ? a : [a, {}]
    return new Response(body ?? (status === 202 ? '{}' : '{"error":"x"}'), { status, headers: h })
  }) as unknown as typeof globalThis.fetch
  return { sent, fetch }
}

const options = (over: Partial<ClientOptions> = {}): ClientOptions => ({
  endpoint: 'http://127.0.0.1:9/',
  gameId: 'arena',
  organizationId: 'org_1',
  sdkKey: 'sdk_test',
  retryBaseMs: 1,
  retryMaxMs: 4,
  ...over,
})

const event = (i: number, pad = 0): SdkEvent => ({
  event_id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  event_type: 'level_start',
  timestamp: '2026-11-27T10:00:00.000Z',
  player_id: 'p',
  session_id: 's',
  data: { pad: 'é'.repeat(pad) },
})

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('batching', () => {
  it('splits by count and by bytes of the body as sent, keeping the order', () => {
    const events = Array.from({ length: 2500 }, (_, i) => event(i, i % 7 === 0 ? 4000 : 10))
    const batches = splitBatches(events, MAX_EVENTS, MAX_BATCH_BYTES)
    expect(batches.flat()).toEqual(events)
    for (const b of batches) {
      expect(b.length).toBeLessThanOrEqual(MAX_EVENTS)
      const body = JSON.stringify({
        batch_id: '00000000-0000-4000-8000-000000000000',
        batch_timestamp: new Date().toISOString(),
        events: b,
      })
      expect(Buffer.byteLength(body)).toBeLessThanOrEqual(MAX_BATCH_BYTES)
    }
    // Bytes, not the count, cut these: events of 8 KB (é is two bytes), 128 fill 1 MB.
    const big = Array.from({ length: 360 }, (_, i) => event(i, 4000))
    const cut = splitBatches(big, MAX_EVENTS, MAX_BATCH_BYTES)
    expect(cut.map((b) => b.length)).toEqual([128, 128, 104])
    const bytes = (events: SdkEvent[]) =>
      Buffer.byteLength(
        JSON.stringify({ batch_id: randomUUID(), batch_timestamp: new Date().toISOString(), events }),
      )
    expect(bytes(cut[0]!)).toBeLessThanOrEqual(MAX_BATCH_BYTES)
    expect(bytes([...cut[0]!, cut[1]![0]!])).toBeGreaterThan(MAX_BATCH_BYTES)
    expect(splitBatches(events.slice(0, 25), 10, MAX_BATCH_BYTES).map((b) => b.length)).toEqual([10, 10, 5])
  })

  it('sends a full buffer at once, in batches of maxBatch, with ids, session and player', async () => {
    const { sent, fetch } = recorder()
    const c = createClient(options({ fetch, maxBatch: 2 }))
    c.track('app_open')
    c.track('level_start', { level: 3 })
    c.track('level_complete')
    await c.shutdown()
    expect(sent.map((s) => s.body.events.length)).toEqual([2, 1])
    expect(sent[0]!.url).toBe('http://127.0.0.1:9/api/v1/gaming/events')
    expect(sent[0]!.headers).toMatchObject({
      authorization: 'Bearer sdk_test',
      'x-game-id': 'arena',
      'x-organization-id': 'org_1',
      'content-type': 'application/json',
    })
    const events = sent.flatMap((s) => s.body.events)
    expect(events.map((e) => e.event_type)).toEqual(['app_open', 'level_start', 'level_complete'])
    expect(events[1]!.data).toEqual({ level: 3 })
    expect(new Set(events.map((e) => e.session_id)).size).toBe(1)
    expect(new Set(events.map((e) => e.player_id)).size).toBe(1)
    for (const e of events) {
      expect(e.event_id).toMatch(UUID)
      expect(e.session_id).toMatch(UUID)
    }
    expect(sent[0]!.body.batch_id).toMatch(UUID)
    expect(sent[0]!.body.batch_id).not.toBe(sent[1]!.body.batch_id)
  })

  it('makes time-ordered ids: each carries the ms it was made at, later ones sort after', async () => {
    vi.useFakeTimers({ now: Date.parse('2026-11-30T10:00:00.000Z'), toFake: ['Date'] })
    try {
      const { sent, fetch } = recorder()
      const c = createClient(options({ fetch }))
      c.track('level_start')
      vi.setSystemTime(Date.parse('2026-11-30T10:00:01.000Z'))
      c.track('level_complete')
      await c.shutdown()
      const [first, second] = sent[0]!.body.events
      expect(msOf(first!.event_id)).toBe(Date.parse(first!.timestamp))
      expect(msOf(second!.event_id)).toBe(Date.parse('2026-11-30T10:00:01.000Z'))
      expect(first!.event_id < second!.event_id).toBe(true)
      expect(msOf(sent[0]!.body.batch_id)).toBe(Date.parse('2026-11-30T10:00:01.000Z'))
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('retries', () => {
  it('retries a 503, a dropped connection, a 408 and a 429 with the same batch_id, then stops', async () => {
    const { sent, fetch } = recorder([
      [503, { 'retry-after': '0' }],
      new TypeError('fetch failed'),
      408,
      [429, { 'retry-after': '0' }],
    ])
    const c = createClient(options({ fetch }))
    c.identify('player-7')
    c.track('purchase', { amount: 1, currency: 'USD' })
    await c.flush()
    await vi.waitFor(() => expect(sent.length).toBe(5))
    await c.flush() // nothing left: no sixth request
    expect(sent.length).toBe(5)
    expect(new Set(sent.map((s) => s.body.batch_id)).size).toBe(1)
    expect(new Set(sent.map((s) => JSON.stringify(s.body.events))).size).toBe(1)
    expect(sent[0]!.body.events[0]!.player_id).toBe('player-7')
    await c.shutdown()
  })

  it('never retries another 4xx: the batch is dropped and reported', async () => {
    for (const status of [400, 401, 403, 413]) {
      const { sent, fetch } = recorder([status])
      const errors: SdkError[] = []
      const c = createClient(options({ fetch, onError: (e) => errors.push(e) }))
      c.track('app_open')
      await c.flush()
      await c.flush()
      expect(sent.length).toBe(1)
      expect(errors).toEqual([
        expect.objectContaining({ kind: 'dropped', status, batchId: sent[0]!.body.batch_id, events: 1 }),
      ])
      await c.shutdown()
    }
  })

  it('a device clock 10 minutes ahead: a 400 whose Date says so resends the batch on the server clock', async () => {
    const real = Date.now()
    const { sent, fetch } = recorder([
      [400, { date: new Date(real).toUTCString() }, '{"error":"StaleBatch"}'],
      [202, { date: new Date(real).toUTCString() }],
    ])
    vi.spyOn(Date, 'now').mockImplementation(() => real + 600_000)
    const errors: SdkError[] = []
    const c = createClient(options({ fetch, onError: (e) => errors.push(e) }))
    c.track('app_open')
    await c.flush()
    expect(sent.length).toBe(2)
    expect(sent[1]!.body.batch_id).toBe(sent[0]!.body.batch_id)
    const off = (iso: string) => Date.parse(iso) - real
    expect(off(sent[0]!.body.events[0]!.timestamp)).toBe(600_000)
    // Whole seconds in Date: within a second and a half of the server's time.
    expect(Math.abs(off(sent[1]!.body.events[0]!.timestamp))).toBeLessThan(1500)
    expect(Math.abs(off(sent[1]!.body.batch_timestamp))).toBeLessThan(1500)
    // Later events are stamped on the server clock from the start.
    c.track('level_start')
    await c.flush()
    expect(Math.abs(off(sent[2]!.body.events[0]!.timestamp))).toBeLessThan(1500)
    expect(errors).toEqual([])
    await c.shutdown()
  })

  it('a clock a second or two off is left alone; a 400 without a clock correction is dropped', async () => {
    const real = Date.now()
    const { sent, fetch } = recorder([[400, { date: new Date(real + 2000).toUTCString() }]])
    vi.spyOn(Date, 'now').mockImplementation(() => real)
    const errors: SdkError[] = []
    const c = createClient(options({ fetch, onError: (e) => errors.push(e) }))
    c.track('app_open')
    await c.flush()
    expect(sent.length).toBe(1)
    expect(errors).toEqual([expect.objectContaining({ kind: 'dropped', status: 400 })])
    c.track('level_start')
    await c.flush()
    expect(Date.parse(sent[1]!.body.events[0]!.timestamp)).toBe(real)
    await c.shutdown()
  })

  it('clockOffset: the middle of the Date second against the middle of the request', () => {
    const sentAt = Date.parse('2026-11-28T10:00:00.000Z')
    expect(clockOffset('Sat, 28 Nov 2026 10:10:00 GMT', sentAt, sentAt + 200)).toBe(600_400)
    expect(clockOffset(null, sentAt, sentAt)).toBeUndefined()
    expect(clockOffset('not a date', sentAt, sentAt)).toBeUndefined()
  })

  it('reports events of an accepted batch that the server refused one by one, without retrying', async () => {
    const answer = { accepted: 1, rejected: 1, errors: [{ index: 1, message: 'player_id must be …' }] }
    const { sent, fetch } = recorder([[202, {}, JSON.stringify(answer)]])
    const errors: SdkError[] = []
    const c = createClient(options({ fetch, onError: (e) => errors.push(e) }))
    c.track('a')
    c.track('b')
    await c.shutdown()
    expect(sent.length).toBe(1)
    expect(errors).toEqual([
      { kind: 'rejected', message: 'player_id must be …', batchId: sent[0]!.body.batch_id, events: 1 },
    ])
  })

  it('waits what Retry-After says on 429/503, else exponential backoff with jitter', () => {
    expect(retryAfterMs('7', 0)).toBe(7000)
    const now = Date.parse('2026-11-27T10:00:00Z')
    expect(retryAfterMs('Fri, 27 Nov 2026 10:00:30 GMT', now)).toBe(30_000)
    expect(retryAfterMs('soon', now)).toBeUndefined()
    expect(retryAfterMs(null, now)).toBeUndefined()
    expect(retryAfterMs('999999', now)).toBe(3_600_000)
    expect([0, 1, 2, 3].map((a) => backoffDelay(a, 0))).toEqual([500, 1000, 2000, 4000])
    expect([0, 1, 2, 3].map((a) => backoffDelay(a, 1))).toEqual([1000, 2000, 4000, 8000])
    expect(backoffDelay(20, 0.5)).toBe(45_000) // capped at 60 s, 30-60 s with jitter
    expect(backoffDelay(2, 0.5, 100, 1000)).toBe(300)
  })

  it('uses Retry-After over the backoff', async () => {
    const { sent, fetch } = recorder([[503, { 'retry-after': '3600' }]])
    const timeouts: number[] = []
    const real = globalThis.setTimeout
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((f: () => void, ms: number) => {
      timeouts.push(ms)
      return real(f, 0)
    }) as typeof setTimeout)
    const c = createClient(options({ fetch, flushIntervalMs: 3_600_000 }))
    c.track('app_open')
    await c.flush()
    expect(timeouts).toContain(3_600_000)
    await vi.waitFor(() => expect(sent.length).toBe(2))
    await c.shutdown()
  })
})

describe('the queue', () => {
  it('holds events while offline in memory and sends them in order when the server answers', async () => {
    const { sent, fetch } = recorder([new TypeError('offline'), new TypeError('offline')])
    const c = createClient(options({ fetch }))
    c.track('a1')
    await c.flush()
    c.track('a2')
    await vi.waitFor(() => expect(sent.length).toBe(3))
    await c.flush()
    const delivered = sent.slice(2).flatMap((s) => s.body.events.map((e) => e.event_type))
    expect(delivered).toEqual(['a1', 'a2'])
    await c.shutdown()
  })

  it('is bounded: over maxQueueBytes the oldest events are dropped and reported', async () => {
    const { sent, fetch } = recorder(Array(20).fill(new TypeError('offline')))
    const errors: SdkError[] = []
    const c = createClient(
      options({ fetch, maxQueueBytes: 4000, retryBaseMs: 3_600_000, onError: (e) => errors.push(e) }),
    )
    for (let i = 0; i < 30; i++) c.track(`e${i}`, { pad: 'x'.repeat(50) })
    await c.shutdown()
    expect(errors.length).toBeGreaterThan(0)
    expect(errors.every((e) => e.kind === 'overflow')).toBe(true)
    const dropped = errors.reduce((n, e) => n + e.events, 0)
    // The one attempt carried the newest events only, and every one not dropped.
    const types = sent[0]!.body.events.map((e) => e.event_type)
    expect(types).toEqual(Array.from({ length: 30 - dropped }, (_, i) => `e${i + dropped}`))
  })

  it('keeps the queue, session and player in the given storage across clients (a reload)', async () => {
    const data = new Map<string, string>()
    const storage = {
      getItem: (k: string) => data.get(k) ?? null,
      setItem: (k: string, v: string) => void data.set(k, v),
    }
    const offline = recorder([new TypeError('offline')])
    const first = createClient(options({ fetch: offline.fetch, storage, retryBaseMs: 3_600_000 }))
    first.track('before')
    await first.shutdown()
    const online = recorder()
    const second = createClient(options({ fetch: online.fetch, storage }))
    second.track('after')
    await second.flush()
    await second.shutdown()
    const batches = online.sent.map((s) => s.body)
    expect(batches[0]!.batch_id).toBe(offline.sent[0]!.body.batch_id)
    const events = batches.flatMap((b) => b.events)
    expect(events.map((e) => e.event_type)).toEqual(['before', 'after'])
    expect(events[0]!.session_id).toBe(events[1]!.session_id)
    expect(events[0]!.player_id).toBe(events[1]!.player_id)
  })
})

describe('page hide', () => {
  it('on pagehide and on visibilitychange to hidden, sends at once with keepalive, uncompressed', async () => {
    const handlers = new Map<string, () => void>()
    const on = (type: string, f: () => void) => void handlers.set(type, f)
    vi.stubGlobal('addEventListener', on)
    vi.stubGlobal('removeEventListener', () => {})
    const doc = { visibilityState: 'visible', addEventListener: on, removeEventListener: () => {} }
    vi.stubGlobal('document', doc)
    const { sent, fetch } = recorder()
    const keepalive: unknown[] = []
    const spy = ((url: string, init: RequestInit) => {
      keepalive.push(init.keepalive)
      return fetch(url, init)
    }) as typeof globalThis.fetch
    const c = createClient(options({ fetch: spy }))
    c.track('level_start', { text: 'x'.repeat(2000) })
    handlers.get('pagehide')!()
    // The request started within the handler, before anything awaited.
    expect(sent.length).toBe(1)
    expect(sent[0]!.headers['content-encoding']).toBeUndefined()
    await c.flush()
    c.track('level_complete')
    doc.visibilityState = 'hidden'
    handlers.get('visibilitychange')!()
    await c.flush()
    expect(sent.length).toBe(2)
    expect(keepalive).toEqual([true, true])
    await c.shutdown()
  })
})

describe('sessions, clicks and signatures', () => {
  it('starts a new session after 30 minutes without events', async () => {
    const { sent, fetch } = recorder()
    let t = Date.parse('2026-11-27T10:00:00Z')
    vi.spyOn(Date, 'now').mockImplementation(() => t)
    const c = createClient(options({ fetch }))
    c.track('a')
    t += 29 * 60_000
    c.track('b')
    t += 30 * 60_000 + 1
    c.track('c')
    await c.shutdown()
    const [a, b, cc] = sent.flatMap((s) => s.body.events)
    expect(a!.session_id).toBe(b!.session_id)
    expect(cc!.session_id).not.toBe(b!.session_id)
    expect(a!.timestamp).toBe('2026-11-27T10:00:00.000Z')
  })

  it('puts the linkd_click of the landing URL in the first app_install only', async () => {
    vi.stubGlobal('location', { search: '?utm_source=x&linkd_click=clk_Ab%2D1&y=2' })
    const { sent, fetch } = recorder()
    const c = createClient(options({ fetch }))
    c.track('app_open')
    c.track('app_install', { campaign: 'spring' })
    c.track('app_install')
    await c.shutdown()
    const events = sent.flatMap((s) => s.body.events)
    expect(events.map((e) => e.data)).toEqual([{}, { campaign: 'spring', click_id: 'clk_Ab-1' }, {}])
  })

  it('signs the body as sent (gzip bytes when compressed) with the signing secret', async () => {
    const { sent, fetch } = recorder()
    const c = createClient(options({ fetch, signingSecret: 'sig_secret' }))
    c.track('small')
    await c.flush()
    c.track('big', { text: 'lorem ipsum '.repeat(200) })
    await c.shutdown()
    expect(sent.map((s) => s.headers['content-encoding'])).toEqual([undefined, 'gzip'])
    for (const s of sent) {
      const ts = s.headers['x-timestamp']!
      const mac = createHmac('sha256', 'sig_secret').update(`${ts}.`).update(s.wire).digest('hex')
      expect(s.headers['x-signature']).toBe(`sha256=${mac}`)
    }
    expect(gunzipSync(sent[1]!.wire).length).toBeGreaterThan(sent[1]!.wire.length)
  })
})

describe('the bundle', () => {
  it('is one ESM file of at most 8 KB minified and gzipped, with no imports', async () => {
    const out = await build({
      entryPoints: ['sdk/web/src/index.ts'],
      bundle: true,
      minify: true,
      format: 'esm',
      target: 'es2020',
      write: false,
    })
    const code = out.outputFiles[0]!.text
    expect(code).not.toMatch(/\bimport\s*[{("'*]/)
    expect(code).toContain('export{')
    expect(gzipSync(code, { level: 9 }).length).toBeLessThanOrEqual(8192)
  })
})
