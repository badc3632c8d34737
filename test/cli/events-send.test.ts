/**
 * `linkctl events send` over several batches against a stub daemon: a busy daemon (503) gets the
 * same batch again after Retry-After; a batch refused after others were stored says which events
 * went, so that only the rest is sent again.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { cli, errorReply, OWNER_KEY, stubServer } from '../support/cli.js'

type Batch = { batch_id: string; events: unknown[] }
let stub: Awaited<ReturnType<typeof stubServer>> | undefined
afterEach(async () => {
  await stub?.close()
  stub = undefined
})

/** A stub whose n-th ingestion request (from 1) answers `reply(n)`. */
async function daemon(
  reply: (n: number, batch: Batch) => { status: number; body?: unknown; headers?: Record<string, string> },
) {
  let n = 0
  stub = await stubServer({
    'POST /api/v1/gaming/events': (req) => reply(++n, req.body as Batch),
  })
  return stub
}
const stored = (b: Batch) => ({
  status: 202,
  body: {
    batchId: b.batch_id,
    accepted: b.events.length,
    flagged: 0,
    blocked: 0,
    duplicates: 0,
    rejected: 0,
    errors: [],
  },
})
const lines = (n: number) =>
  Array.from({ length: n }, (_, i) => JSON.stringify({ event_type: 'level_start', player_id: `p${i}` })).join(
    '\n',
  )
const send = (url: string, n: number) =>
  cli(['events', 'send', '-', '--game', 'g1', '--org', 'org_1', '--sdk-key', 'sdk_x', '--json'], {
    env: { LINKCTL_URL: url, LINKCTL_API_KEY: OWNER_KEY },
    stdin: lines(n),
  })

describe('linkctl events send, batch by batch', () => {
  it('a 503 (queue full) is sent again with the same batch_id after Retry-After', async () => {
    const s = await daemon((n, b) =>
      n === 2
        ? {
            ...errorReply(503, 'ServiceUnavailable', 'ingestion queue full'),
            headers: { 'retry-after': '1' },
          }
        : stored(b),
    )
    const r = await send(s.url, 1500)
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({ batches: 2, accepted: 1500 })
    const ids = s.requests.map((q) => (q.body as Batch).batch_id)
    expect(ids).toHaveLength(3)
    expect(ids[2]).toBe(ids[1])
    expect(r.stderr).toContain(`linkd is busy (HTTP 503): sending batch ${ids[1]} again in 1 s`)
  })

  it('events without event_id and the batches get time-ordered ids (UUIDv7), as the web SDK makes', async () => {
    const s = await daemon((_n, b) => stored(b))
    const before = Date.now()
    const r = await send(s.url, 1500)
    expect(r.code, r.stderr).toBe(0)
    const batches = s.requests.map((q) => q.body as { batch_id: string; events: Array<{ event_id: string }> })
    const ids = [
      ...batches.map((b) => b.batch_id),
      ...batches.flatMap((b) => b.events.map((e) => e.event_id)),
    ]
    expect(ids).toHaveLength(2 + 1500)
    expect(new Set(ids).size).toBe(ids.length)
    for (const id of ids) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
      // The first 48 bits are the Unix ms the id was made (not before the command started).
      expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBeGreaterThanOrEqual(before)
    }
  })

  it('a batch refused after others were stored says which events were stored and which to send again', async () => {
    const s = await daemon((n, b) =>
      n === 3
        ? errorReply(429, 'RateLimitExceeded', 'rate limit exceeded (per game and client address)')
        : stored(b),
    )
    const r = await cli(['events', 'send', '-', '--game', 'g1', '--org', 'org_1', '--sdk-key', 'sdk_x'], {
      env: { LINKCTL_URL: s.url, LINKCTL_API_KEY: OWNER_KEY },
      stdin: lines(2500),
    })
    expect(r.code).toBe(7)
    expect(r.stderr).toBe(
      'error: rate limit exceeded (per game and client address) (HTTP 429)\n' +
        'events 1-2000 of 2500 were stored before it, events 2001-2500 were not: send only those again ' +
        '(an event without event_id gets a new one each time)\n',
    )
    expect(s.requests).toHaveLength(3)
  })

  it('a rejected event is numbered as the input counts them, from 1, across batches', async () => {
    const s = await daemon((n, b) => {
      const r = stored(b)
      if (n === 2)
        Object.assign(r.body, {
          accepted: b.events.length - 1,
          rejected: 1,
          errors: [{ index: 4, eventId: 'e-1005', error: 'InvalidEvent', message: 'session_id is required' }],
        })
      return r
    })
    const r = await cli(['events', 'send', '-', '--game', 'g1', '--org', 'org_1', '--sdk-key', 'sdk_x'], {
      env: { LINKCTL_URL: s.url, LINKCTL_API_KEY: OWNER_KEY },
      stdin: lines(1500),
    })
    expect(r.code).toBe(1)
    expect(r.stdout).toContain('#\tEVENT\tERROR\tMESSAGE\n1005\te-1005\tInvalidEvent\tsession_id is required')
    expect(r.stderr).toContain('1 of 1,500 events was rejected')
  })
})
