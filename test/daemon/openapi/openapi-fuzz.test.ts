/**
 * OpenAPI-driven fuzz test: every operation of the served document gets
 * FUZZ_CASES (default 60) hostile requests derived from its schemas, and every answer must be
 * below 500 and, when 4xx, carry the error body. Seeded (FUZZ_SEED) and reproducible;
 * FUZZ_ONLY (a substring of `METHOD /path`) narrows the run to some operations.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LightMyRequestResponse } from 'fastify'
import { createTestApp, type TestApp } from '../../support/app.js'
import { startReceiver, type Receiver } from '../../support/receiver.js'
import type { Resolver } from '../../../daemon/modules/webhooks/ssrf.js'
import { operations, type OpenApiDoc, type Operation, type Val } from '../../support/openapi-fuzz.js'
import { generateCases, type Case, type FuzzRequest } from '../../support/fuzz-cases.js'

const DEFAULT_SEED = 20261121
const SEED = Number(process.env.FUZZ_SEED ?? DEFAULT_SEED)
const CASES = Number(process.env.FUZZ_CASES ?? 60)
const ONLY = process.env.FUZZ_ONLY ?? ''
/** Replaced in every request body by a fresh value (batch and event ids must not repeat). */
const UNIQUE = 'fuzzuniq'
const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`

interface Ids {
  key: string
  link: string
  webhook: string
  delivery: string
  game: string
  domain: string
  gdpr: string
}

interface Violation {
  op: string
  c: Case
  status: number
  body: string
  problem: string
}

/** Resource a path parameter names: by its name, else by the collection segment before `{id}`. */
function resourceOf(name: string, path: string): keyof Ids | undefined {
  const byName: Record<string, keyof Ids> = { domainId: 'domain', gameId: 'game', deliveryId: 'delivery' }
  if (byName[name]) return byName[name]
  const segs = path.split('/')
  const before = segs[segs.indexOf(`{${name}}`) - 1] ?? ''
  const bySeg: Record<string, keyof Ids> = {
    keys: 'key',
    links: 'link',
    webhooks: 'webhook',
    deletions: 'gdpr',
    games: 'game',
    domains: 'domain',
  }
  return bySeg[before]
}

async function ok<T>(res: Promise<LightMyRequestResponse>, what: string): Promise<T> {
  const r = await res
  if (r.statusCode >= 300) throw new Error(`fixture ${what}: ${r.statusCode} ${r.body.slice(0, 300)}`)
  return r.json<T>()
}

/** A small world of one organization: the real ids the operations' path parameters use. */
async function world(t: TestApp, key: string, hookUrl: string, n: string): Promise<Ids & { sdkKey: string }> {
  const call = (method: 'POST' | 'GET', url: string, body?: unknown) =>
    t.call(method, url, { key, ...(body !== undefined ? { body } : {}) })
  const k = await ok<{ id: string }>(
    call('POST', '/api/keys', { name: `victim ${n}`, preset: 'full' }),
    'key',
  )
  const hook = await ok<{ id: string }>(
    call('POST', '/api/webhooks', { name: `hook ${n}`, url: hookUrl, events: ['link.created'] }),
    'webhook',
  )
  const link = await ok<{ id: string }>(
    call('POST', '/api/use/links', { destinationUrl: `https://example.com/${n}` }),
    'link',
  )
  // The link.created delivery is written by an event listener, after the link's transaction.
  let deliveries: { data: Array<{ id: string }> } = { data: [] }
  for (let i = 0; i < 20 && !deliveries.data.length; i++) {
    await new Promise((r) => setImmediate(r))
    deliveries = await ok(call('GET', `/api/webhooks/${hook.id}/deliveries`), 'deliveries')
  }
  const game = await ok<{ id: string; sdkKey: string }>(
    call('POST', '/api/v1/admin/games', { name: `Fuzz game ${n}`, platform: 'ios' }),
    'game',
  )
  const domain = await ok<{ id: string }>(
    call('POST', '/api/domains', { domain: `go-${n}.fuzz.test` }),
    'domain',
  )
  const gdpr = await ok<{ id: string }>(
    call('POST', '/api/v1/gaming/gdpr/deletions', {
      gameId: game.id,
      playerId: 'player-1',
      reason: 'fuzz',
      confirmation: 'DELETE',
    }),
    'gdpr',
  )
  return {
    key: k.id,
    link: link.id,
    webhook: hook.id,
    delivery: deliveries.data[0]?.id ?? 'dlv_none',
    game: game.id,
    sdkKey: game.sdkKey,
    domain: domain.id,
    gdpr: gdpr.id,
  }
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

/** What is wrong with an answer: a 5xx, a 4xx without the error body, no rate-limit headers. */
function problemOf(res: LightMyRequestResponse): string | undefined {
  const status = res.statusCode
  if (status >= 500) return `status ${status}`
  if (/\n\s+at\s|"stack"/.test(res.body)) return 'stack trace in the body'
  for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])
    if (!/^\d+$/.test(String(res.headers[h]))) return `no ${h} header`
  if (status === 429 && !/^\d+$/.test(String(res.headers['retry-after']))) return 'a 429 without Retry-After'
  if (status < 400) return undefined
  if (!/^application\/json/.test(String(res.headers['content-type'] ?? '')))
    return `content-type ${String(res.headers['content-type'])}`
  let b: Record<string, unknown>
  try {
    b = JSON.parse(res.body) as Record<string, unknown>
  } catch {
    return 'body is not JSON'
  }
  if (typeof b.error !== 'string' || !b.error) return 'no `error` string'
  if (typeof b.message !== 'string' || !b.message) return 'no `message` string'
  if (b.statusCode !== status) return `statusCode ${String(b.statusCode)} ≠ ${status}`
  if (typeof b.timestamp !== 'string' || !ISO.test(b.timestamp)) return 'no ISO `timestamp`'
  if (typeof b.path !== 'string' || !b.path.startsWith('/')) return 'no `path`'
  if (status === 400) {
    const d = b.details
    if (!Array.isArray(d) || d.length === 0) return 'a 400 without `details`'
    for (const x of d as Array<Record<string, unknown>>)
      if (typeof x?.field !== 'string' || typeof x?.message !== 'string')
        return 'a detail without field/message'
  }
  return undefined
}

const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…(${s.length} chars)` : s)

function describeRequest(r: FuzzRequest): string {
  const headers = Object.entries(r.headers)
    .filter(([k]) => k !== 'authorization' || !/lk_(live|test)_\w{32}$/.test(r.headers[k] ?? ''))
    .map(([k, v]) => `${k}: ${cut(v, 60)}`)
  return `${r.method} ${cut(r.url, 200)}\n      ${headers.join('\n      ')}${
    r.payload !== undefined ? `\n      body: ${cut(r.payload, 300)}` : ''
  }`
}

function report(vs: Violation[]): string {
  return [
    `${vs.length} fuzz violation(s) with FUZZ_SEED=${SEED} FUZZ_CASES=${CASES}. Reproduce one operation with:`,
    `  FUZZ_SEED=${SEED} FUZZ_CASES=${CASES} FUZZ_ONLY='<METHOD /path>' npx vitest run test/daemon/openapi/openapi-fuzz.test.ts`,
    ...vs.map(
      (v) =>
        `- ${v.op} case #${v.c.index} ${v.c.kind}${v.c.target ? ` [${cut(v.c.target, 60)}]` : ''}: ${v.problem}\n` +
        `    request: ${describeRequest(v.c.request)}\n    response: ${v.status} ${cut(v.body, 400)}`,
    ),
  ].join('\n')
}

describe('OpenAPI fuzz: hostile input never gives a 5xx and every 4xx carries the error body', () => {
  let t: TestApp
  let receiver: Receiver
  let doc: OpenApiDoc
  let foreign: Ids & { sdkKey: string }
  /** A key with a rate limit of 1 request a minute, used up (the fake clock stands still). */
  let limitedKey: string
  beforeAll(async () => {
    receiver = await startReceiver()
    // No real network: every host name resolves to loopback, which the webhook guard refuses
    // unless the URL names localhost or 127.0.0.1 (the receiver).
    const resolve: Resolver = async () => [{ address: '127.0.0.1', family: 4 }]
    t = await createTestApp(
      {
        cnameTarget: 'links.fuzz.test',
        rateLimitPerIp: 10_000_000,
        rateLimitPerOrg: 10_000_000,
        rateLimitPerMember: 10_000_000,
        ingestRateLimitPerGame: 10_000_000,
        ingestRateLimitPerClient: 10_000_000,
      },
      // FUZZ_LOG=1: the daemon's error log (the stack behind a 500) on stderr.
      { resolve, ...(process.env.FUZZ_LOG ? { logger: { level: 'error' } } : {}) },
    )
    const res = await t.call('GET', '/api/docs/openapi.json', { key: null })
    expect(res.statusCode).toBe(200)
    doc = res.json<OpenApiDoc>()
    const other = await t.createOrg('fuzz-other')
    foreign = await world(t, other.ownerKey, receiver.url, 'foreign')
    limitedKey = (await t.createKey({ preset: 'full', requestLimit: 1, timePeriod: 'minute' })).key
    expect((await t.call('GET', '/api/keys', { key: limitedKey })).statusCode).toBe(200)
    expect((await t.call('GET', '/api/keys', { key: limitedKey })).statusCode).toBe(429)
  })
  afterAll(async () => {
    await t?.close()
    await receiver?.close()
  })

  it(
    `${CASES} hostile requests per operation: no 5xx, the error body on every 4xx (FUZZ_SEED=${SEED})`,
    { timeout: 300_000 },
    async () => {
      const ops = operations(doc).filter((o) => o.name.includes(ONLY))
      expect(ops.length, `operations matching FUZZ_ONLY=${ONLY}`).toBeGreaterThan(0)
      if (!ONLY) expect(ops.length).toBeGreaterThanOrEqual(50)
      expect(CASES).toBeGreaterThanOrEqual(ONLY ? 1 : 50)
      const violations: Violation[] = []
      const sent = new Map<string, number>()
      let unique = 0
      const stats = new Map<string, number[]>()
      for (const [i, op] of ops.entries()) {
        const ids = await world(t, t.ownerKey, receiver.url, `op${i}`)
        const cases = generateCases(doc, op, context(ids), SEED, CASES)
        for (const c of cases) {
          const r = c.request
          const payload = r.payload?.replaceAll(UNIQUE, () => uuid(++unique))
          const res = await t.app.inject({
            method: r.method as 'GET',
            url: r.url,
            headers: r.headers,
            ...(payload !== undefined ? { payload } : {}),
          })
          sent.set(op.name, (sent.get(op.name) ?? 0) + 1)
          if (process.env.FUZZ_STATS) {
            const key = `${op.name}\t${c.kind}`
            stats.set(key, [...(stats.get(key) ?? []), res.statusCode])
          }
          const problem = problemOf(res)
          if (!problem) continue
          violations.push({ op: op.name, c, status: res.statusCode, body: res.body, problem })
        }
      }
      if (process.env.FUZZ_STATS) console.info([...stats].map(([k, v]) => `${k}\t${v.join(',')}`).join('\n'))
      expect(violations.length, report(violations)).toBe(0)
      for (const op of ops) expect(sent.get(op.name), op.name).toBeGreaterThanOrEqual(CASES)
    },
  )

  function context(ids: Ids & { sdkKey: string }) {
    const now = new Date(t.clock.now()).toISOString()
    const hints = (field: string): Val | undefined =>
      ({
        destinationUrl: 'https://example.com/fuzz',
        url: receiver.url,
        domain: `go-${UNIQUE}.fuzz.test`,
        events: ['link.created'],
        gameId: ids.game,
        playerId: 'player-1',
        confirmation: 'DELETE',
        key: t.ownerKey,
        links: [{ destinationUrl: 'https://example.com/bulk' }],
        ids: [ids.webhook],
        startDate: '2026-11-01',
        endDate: '2026-11-20',
      })[field]
    return {
      hints,
      pathParam: (name: string, path: string) => {
        const r = resourceOf(name, path)
        return r ? ids[r] : 'unknown'
      },
      foreignParam: (name: string, path: string) => {
        const r = resourceOf(name, path)
        return r ? foreign[r] : 'unknown'
      },
      auth: (o: Operation): Record<string, string> => {
        if (o.path === '/api/v1/gaming/events' || o.security.some((s) => /sdk/i.test(s)))
          return {
            authorization: `Bearer ${ids.sdkKey}`,
            'x-game-id': ids.game,
            'x-organization-id': t.orgId,
          }
        return o.security.length ? { authorization: `Bearer ${t.ownerKey}` } : {}
      },
      limitedAuth: (o: Operation) =>
        o.security.length && o.path !== '/api/v1/gaming/events'
          ? { authorization: `Bearer ${limitedKey}` }
          : undefined,
      extraHeaders: (o: Operation) =>
        o.path === '/api/v1/gaming/events'
          ? ['x-game-id', 'x-organization-id', 'x-timestamp', 'x-signature', 'content-encoding']
          : [],
      baselineBody: (o: Operation): Val | undefined =>
        o.path === '/api/v1/gaming/events'
          ? {
              batch_id: UNIQUE,
              batch_timestamp: now,
              events: [
                {
                  event_id: UNIQUE,
                  event_type: 'purchase',
                  timestamp: now,
                  player_id: 'player-1',
                  session_id: 'sess-1',
                  platform: 'ios',
                  data: { amount: 4.99, currency: 'USD', level: 1 },
                },
              ],
            }
          : undefined,
    }
  }
})
