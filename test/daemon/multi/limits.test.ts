/**
 * Quotas, idempotency keys and key usage across three processes on one PostgreSQL database: a
 * limit is one count for all of them (http/rate-limit-store.ts), an idempotency key is claimed in
 * the database, usage counters add up.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { postgresOnly } from '../../support/postgres.js'
import { createSharedApps, type SharedApps } from '../../support/shared-database.js'
import type { TestApp } from '../../support/app.js'
import type { ApiKey } from '../../../src/contract/keys.js'
import { batch, createGame, event, send } from '../../support/gaming.js'

let shared: SharedApps
afterEach(() => shared.close())

const apps = () => shared.apps as [TestApp, TestApp, TestApp]
const statuses = (responses: Array<{ statusCode: number }>) => {
  const count = new Map<number, number>()
  for (const r of responses) count.set(r.statusCode, (count.get(r.statusCode) ?? 0) + 1)
  return Object.fromEntries(count)
}

describe.runIf(postgresOnly())('limits with three processes on one PostgreSQL database', () => {
  it('a key limited to 100 requests a minute gets 100 in total, whichever process serves them', async () => {
    shared = await createSharedApps(3)
    const [a] = apps()
    const key = await a.createKey({ name: 'quota', preset: 'full', requestLimit: 100, timePeriod: 'minute' })
    const responses = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        shared.apps[i % 3]!.call('GET', '/api/use/links', { key: key.key }),
      ),
    )
    expect(statuses(responses)).toEqual({ 200: 100, 429: 50 })
    const last = responses.filter((r) => r.statusCode === 429)[0]!
    expect(last.headers['x-ratelimit-remaining']).toBe('0')
    // The next window starts from zero on every process.
    for (const t of shared.apps) t.clock.advance(60_000)
    expect((await apps()[2].call('GET', '/api/use/links', { key: key.key })).statusCode).toBe(200)
  })

  it('the organization window is shared too', async () => {
    shared = await createSharedApps(3, { rateLimitPerOrg: 30 })
    const [a] = apps()
    const responses = await Promise.all(
      Array.from({ length: 45 }, (_, i) => shared.apps[i % 3]!.call('GET', '/api/keys', { key: a.ownerKey })),
    )
    expect(statuses(responses)).toEqual({ 200: 30, 429: 15 })
  })

  it('key and organization windows, counted together, both hold in total across the processes', async () => {
    shared = await createSharedApps(2, { rateLimitPerOrg: 30 })
    const [a, b] = shared.apps as [TestApp, TestApp]
    const { keys } = a.app.linkd.services
    const limited = await keys.create(a.orgId, {
      name: 'twenty',
      preset: 'full',
      requestLimit: 20,
      timePeriod: 'minute',
    })
    const other = await keys.create(a.orgId, { name: 'other', preset: 'full' })
    const calls = Array.from({ length: 60 }, (_, i) => ({
      key: i % 2 ? limited.key : other.key,
      app: i % 4 < 2 ? a : b,
    }))
    const responses = await Promise.all(calls.map((c) => c.app.call('GET', '/api/keys', { key: c.key })))
    const refusedFor = (tier: string) =>
      responses.filter((r) => r.statusCode === 429 && r.json<{ message: string }>().message.includes(tier))
    expect(statuses(responses)).toEqual({ 200: 30, 429: 30 })
    // The limited key passed its window 20 times (10 refused by it); the organization admitted
    // 30 of the 50 requests its keys' windows let through; a refused key counted nothing there.
    expect(refusedFor('per API key')).toHaveLength(10)
    expect(refusedFor('per organization')).toHaveLength(20)
  })

  it("a game's ingestion window is one count across the processes", async () => {
    shared = await createSharedApps(3, { ingestRateLimitPerGame: 10 })
    const [a] = apps()
    const game = await createGame(a)
    const responses = await Promise.all(
      Array.from({ length: 15 }, (_, i) => {
        const t = shared.apps[i % 3]!
        return send(t, batch(t, [event(t)]), { game, orgId: a.orgId })
      }),
    )
    // The window is counted before the batch is read: 5 of the 15 are refused whatever the
    // 10 admitted ones then get (stored: 202).
    expect(responses.filter((r) => r.statusCode === 429)).toHaveLength(5)
  })

  it('an idempotency key: replayed by another process; two concurrent first requests run once', async () => {
    shared = await createSharedApps(3)
    const [a, b, c] = apps()
    const create = (t: TestApp, idem: string) =>
      t.call('POST', '/api/use/links', {
        key: a.ownerKey,
        body: { destinationUrl: 'https://example.com/once' },
        headers: { 'x-idempotency-key': idem },
      })
    const first = await create(a, 'replay-me')
    expect(first.statusCode).toBe(201)
    const replay = await create(b, 'replay-me')
    expect(replay.statusCode).toBe(201)
    expect(replay.headers['idempotent-replayed']).toBe('true')
    expect(replay.json<{ id: string }>().id).toBe(first.json<{ id: string }>().id)

    const racing = await Promise.all([create(a, 'race'), create(b, 'race'), create(c, 'race')])
    const created = racing.filter((r) => r.statusCode === 201 && !r.headers['idempotent-replayed'])
    expect(created).toHaveLength(1)
    // The others: 409 while the first runs, or its replay once it has finished.
    for (const r of racing.filter((x) => x !== created[0]))
      expect(r.statusCode === 409 || r.headers['idempotent-replayed'] === 'true').toBe(true)
    const list = await c.call('GET', '/api/use/links?limit=100', { key: a.ownerKey })
    expect(list.json<{ data: Array<{ destinationUrl: string }> }>().data).toHaveLength(2)
  })

  it("a key's usage counters add up the requests every process served", async () => {
    shared = await createSharedApps(3)
    const [a] = apps()
    const key = await a.createKey({ name: 'counted', preset: 'full' })
    for (let i = 0; i < 12; i++) await shared.apps[i % 3]!.call('GET', '/api/use/links', { key: key.key })
    await Promise.all(shared.apps.map((t) => t.app.linkd.services.keys.usage.flush()))
    const got = await apps()[1].call('GET', `/api/keys/${key.id}`, { key: a.ownerKey })
    expect(got.json<ApiKey>().usage.totalRequests).toBe(12)
  })
})
