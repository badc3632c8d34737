import { afterEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../support/app.js'
import { createMemoryRateLimitStore, evaluate } from '../../../daemon/http/rate-limit.js'
import { expectError, rateHeaders, raw } from '../../support/responses.js'

const MINUTE = 60_000
const HOUR = 3_600_000
const DAY = 86_400_000
const START = Date.parse('2026-11-21T10:00:00.000Z')

describe('rate limit headers', () => {
  let t: TestApp
  afterEach(() => t.close())

  it('are on every response: success, 404, 401, 403, 400, public routes and docs', async () => {
    t = await createTestApp()
    const reader = await t.createKey({ name: 'reader', permissions: ['keys:read'] })
    const responses = [
      await t.call('GET', '/api/keys'),
      await t.call('GET', '/api/nope'),
      await t.call('GET', '/api/keys', { key: null }),
      await t.call('GET', '/api/keys', { key: 'lk_live_short' }),
      await t.call('POST', '/api/keys', { key: reader.key, body: { name: 'x' } }),
      await t.call('POST', '/api/keys', { body: {} }),
      await t.call('GET', '/health', { key: null }),
      await t.call('GET', '/health/ready', { key: null }),
      await t.call('GET', '/api/use', { key: null }),
      await t.call('POST', '/api/keys/test', { key: null, body: { key: t.ownerKey } }),
      await t.call('GET', '/api/docs/openapi.json', { key: null }),
      await t.call('DELETE', `/api/keys/${reader.id}`),
    ]
    expect(responses.map((r) => r.statusCode)).toEqual([
      200, 404, 401, 401, 403, 400, 200, 200, 200, 200, 200, 204,
    ])
    for (const res of responses) {
      const h = rateHeaders(res)
      expect(h.limit).toBeGreaterThan(0)
      expect(h.remaining).toBeLessThanOrEqual(h.limit)
      // Unix seconds (not ms), at or after now and within the longest window
      expect(h.reset).toBeGreaterThanOrEqual(Math.floor(START / 1000))
      expect(h.reset).toBeLessThanOrEqual(Math.ceil((START + HOUR) / 1000))
    }
  })

  it('unauthenticated requests show the per-IP window; authenticated ones the key window', async () => {
    t = await createTestApp({ rateLimitPerIp: 50 })
    const pub = rateHeaders(await t.call('GET', '/health', { key: null }))
    expect(pub).toEqual({ limit: 50, remaining: 49, reset: (START + MINUTE) / 1000 })
    const k = await t.createKey({ name: 'hourly', preset: 'full', requestLimit: 7, timePeriod: 'hour' })
    const authed = rateHeaders(await t.call('GET', '/api/keys', { key: k.key }))
    expect(authed).toEqual({ limit: 7, remaining: 6, reset: (START + HOUR) / 1000 })
  })
})

describe('per-key limit', () => {
  let t: TestApp
  afterEach(() => t.close())

  async function exhaust(key: string, n: number) {
    for (let i = 1; i <= n; i++) {
      const res = await t.call('GET', '/api/keys', { key })
      expect(res.statusCode, `request ${i}`).toBe(200)
      expect(rateHeaders(res).remaining).toBe(n - i)
    }
  }

  it('N requests pass and request N+1 is 429 with Retry-After and the error body', async () => {
    t = await createTestApp()
    const k = await t.createKey({
      name: 'three a minute',
      preset: 'full',
      requestLimit: 3,
      timePeriod: 'minute',
    })
    await exhaust(k.key, 3)
    t.clock.advance(15_000)
    const res = await t.call('GET', '/api/keys', { key: k.key })
    const body = expectError(res, 429, 'RateLimitExceeded', '/api/keys')
    expect(body.message).toContain('per API key')
    expect(res.headers['retry-after']).toBe('45')
    expect(rateHeaders(res)).toEqual({ limit: 3, remaining: 0, reset: (START + MINUTE) / 1000 })
    // other keys are not affected
    expect((await t.call('GET', '/api/keys')).statusCode).toBe(200)
    // every route of the key is limited, writes included
    expectError(
      await t.call('POST', '/api/keys', { key: k.key, body: { name: 'x' } }),
      429,
      'RateLimitExceeded',
    )
  })

  it('a limit of 1 allows exactly one request', async () => {
    t = await createTestApp()
    const k = await t.createKey({ name: 'one', preset: 'full', requestLimit: 1, timePeriod: 'day' })
    await exhaust(k.key, 1)
    expectError(await t.call('GET', '/api/keys', { key: k.key }), 429, 'RateLimitExceeded')
  })

  it('a minute window resets at the next minute', async () => {
    t = await createTestApp()
    const k = await t.createKey({ name: 'per minute', preset: 'full', requestLimit: 2, timePeriod: 'minute' })
    await exhaust(k.key, 2)
    t.clock.set(START + MINUTE - 1)
    const still = await t.call('GET', '/api/keys', { key: k.key })
    expectError(still, 429, 'RateLimitExceeded')
    expect(still.headers['retry-after']).toBe('1')
    t.clock.set(START + MINUTE)
    await exhaust(k.key, 2)
    expect(rateHeaders(await t.call('GET', '/api/keys', { key: k.key })).reset).toBe(
      (START + 2 * MINUTE) / 1000,
    )
  })

  it('an hour window resets at the next hour', async () => {
    t = await createTestApp()
    const k = await t.createKey({ name: 'per hour', preset: 'full', requestLimit: 2, timePeriod: 'hour' })
    await exhaust(k.key, 2)
    t.clock.set(START + 59 * MINUTE)
    const still = await t.call('GET', '/api/keys', { key: k.key })
    expectError(still, 429, 'RateLimitExceeded')
    expect(still.headers['retry-after']).toBe('60')
    t.clock.set(START + HOUR)
    await exhaust(k.key, 2)
  })

  it('a day window resets at the next UTC midnight', async () => {
    t = await createTestApp()
    const k = await t.createKey({ name: 'per day', preset: 'full', requestLimit: 2, timePeriod: 'day' })
    await exhaust(k.key, 2)
    const midnight = Date.parse('2026-11-22T00:00:00.000Z')
    const res = await t.call('GET', '/api/keys', { key: k.key })
    expectError(res, 429, 'RateLimitExceeded')
    expect(res.headers['retry-after']).toBe(String((midnight - START) / 1000))
    expect(rateHeaders(res).reset).toBe(midnight / 1000)
    t.clock.set(midnight - 1)
    expectError(await t.call('GET', '/api/keys', { key: k.key }), 429, 'RateLimitExceeded')
    t.clock.set(midnight)
    await exhaust(k.key, 2)
  })

  it('raising the limit takes effect on the next request', async () => {
    t = await createTestApp()
    const k = await t.createKey({ name: 'raise me', preset: 'full', requestLimit: 1, timePeriod: 'hour' })
    await exhaust(k.key, 1)
    expectError(await t.call('GET', '/api/keys', { key: k.key }), 429, 'RateLimitExceeded')
    expect((await t.call('PATCH', `/api/keys/${k.id}`, { body: { requestLimit: 5 } })).statusCode).toBe(200)
    const res = await t.call('GET', '/api/keys', { key: k.key })
    expect(res.statusCode).toBe(200)
    expect(rateHeaders(res).limit).toBe(5)
  })
})

describe('per-IP limit', () => {
  let t: TestApp
  afterEach(() => t.close())

  it('N requests from one IP pass, N+1 is 429; other IPs are unaffected; resets next minute', async () => {
    t = await createTestApp({ rateLimitPerIp: 5 })
    for (let i = 1; i <= 5; i++) {
      const res = await t.call('GET', '/health', { key: null })
      expect(res.statusCode).toBe(200)
      expect(rateHeaders(res)).toEqual({ limit: 5, remaining: 5 - i, reset: (START + MINUTE) / 1000 })
    }
    t.clock.advance(20_000)
    const over = await t.call('GET', '/health', { key: null })
    const body = expectError(over, 429, 'RateLimitExceeded', '/health')
    expect(body.message).toContain('per IP')
    expect(over.headers['retry-after']).toBe('40')
    expect(rateHeaders(over).remaining).toBe(0)
    // authenticated requests from the same IP are refused before authentication
    expectError(await t.call('GET', '/api/keys'), 429, 'RateLimitExceeded')
    expectError(await t.call('GET', '/api/keys', { key: 'lk_live_short' }), 429, 'RateLimitExceeded')
    expectError(await t.call('GET', '/api/nope'), 429, 'RateLimitExceeded')

    const other = await raw(t, { method: 'GET', url: '/health', remoteAddress: '198.51.100.20' })
    expect(other.statusCode).toBe(200)
    expect(rateHeaders(other).remaining).toBe(4)

    t.clock.set(START + MINUTE)
    expect((await t.call('GET', '/health', { key: null })).statusCode).toBe(200)
  })

  it('an IPv6 client counts per /64: other addresses of its block share the window, another block does not', async () => {
    t = await createTestApp({ rateLimitPerIp: 2 })
    const from = (remoteAddress: string) => raw(t, { method: 'GET', url: '/health', remoteAddress })
    expect((await from('2001:db8:1:2::1')).statusCode).toBe(200)
    expect((await from('2001:db8:1:2:ffff:ffff:ffff:fffe')).statusCode).toBe(200)
    // A third address of the same /64 is the same client: its window is spent.
    expectError(await from('2001:db8:1:2:abcd::9'), 429, 'RateLimitExceeded', '/health')
    expect((await from('2001:db8:1:3::1')).statusCode).toBe(200)
    // IPv4-mapped addresses count as the IPv4 address.
    expect((await from('198.51.100.7')).statusCode).toBe(200)
    expect((await from('::ffff:198.51.100.7')).statusCode).toBe(200)
    expectError(await from('198.51.100.7'), 429, 'RateLimitExceeded', '/health')
  })

  it('redirects count in their own per-IP window: API calls and redirects do not share a budget', async () => {
    t = await createTestApp({ rateLimitPerIp: 2, rateLimitRedirectsPerIp: 3 })
    const created = await t.call('POST', '/api/use/links', {
      body: { destinationUrl: 'https://example.com/' },
    })
    const code = created.json().shortCode as string
    const host = t.config.shortDomain
    const visit = () => raw(t, { method: 'GET', url: `/${code}`, headers: { host } })
    for (let i = 1; i <= 3; i++) {
      const res = await visit()
      expect(res.statusCode, `redirect ${i}`).toBe(302)
      expect(rateHeaders(res)).toEqual({ limit: 3, remaining: 3 - i, reset: (START + MINUTE) / 1000 })
    }
    const over = await visit()
    expectError(over, 429, 'RateLimitExceeded')
    expect(over.headers['retry-after']).toBe('60')
    // the API window of the same address was used once (the create) and still has room
    const api = await t.call('GET', '/health', { key: null })
    expect(api.statusCode).toBe(200)
    expect(rateHeaders(api)).toMatchObject({ limit: 2, remaining: 0 })
    t.clock.set(START + MINUTE)
    expect((await visit()).statusCode).toBe(302)
  })

  it('with trustProxy the forwarded client address is the one limited', async () => {
    t = await createTestApp({ rateLimitPerIp: 2, trustProxy: true })
    const as = (ip: string) => raw(t, { method: 'GET', url: '/health', headers: { 'x-forwarded-for': ip } })
    expect((await as('203.0.113.1')).statusCode).toBe(200)
    expect((await as('203.0.113.1')).statusCode).toBe(200)
    expectError(await as('203.0.113.1'), 429, 'RateLimitExceeded')
    expect((await as('203.0.113.2')).statusCode).toBe(200)
  })
})

describe('per-organization limit', () => {
  let t: TestApp
  afterEach(() => t.close())

  it('counts the keys of one organization together; another organization is unaffected', async () => {
    t = await createTestApp({ rateLimitPerOrg: 4 })
    const { keys } = t.app.linkd.services
    const a = await keys.create(t.orgId, { name: 'a', preset: 'full' })
    const b = await keys.create(t.orgId, { name: 'b', preset: 'full' })
    const other = await t.createOrg('acme')

    const order = [a.key, b.key, a.key, b.key]
    for (const [i, key] of order.entries()) {
      const res = await t.call('GET', '/api/keys', { key })
      expect(res.statusCode, `request ${i + 1}`).toBe(200)
    }
    for (const key of [a.key, b.key, t.ownerKey]) {
      const res = await t.call('GET', '/api/keys', { key })
      const body = expectError(res, 429, 'RateLimitExceeded')
      expect(body.message).toContain('per organization')
      expect(rateHeaders(res)).toEqual({ limit: 4, remaining: 0, reset: (START + MINUTE) / 1000 })
      expect(res.headers['retry-after']).toBe('60')
    }
    const elsewhere = await t.call('GET', '/api/keys', { key: other.ownerKey })
    expect(elsewhere.statusCode).toBe(200)
    expect(elsewhere.json().total).toBe(1)

    t.clock.set(START + MINUTE)
    expect((await t.call('GET', '/api/keys', { key: a.key })).statusCode).toBe(200)
  })
})

describe('key and organization windows together', () => {
  let t: TestApp
  afterEach(() => t.close())

  it("a request its key's window refuses does not use up its organization's window", async () => {
    t = await createTestApp({ rateLimitPerOrg: 3 })
    const { keys } = t.app.linkd.services
    const limited = await keys.create(t.orgId, {
      name: 'two a minute',
      preset: 'full',
      requestLimit: 2,
      timePeriod: 'minute',
    })
    const other = await keys.create(t.orgId, { name: 'other', preset: 'full' })
    for (let i = 0; i < 2; i++)
      expect((await t.call('GET', '/api/keys', { key: limited.key })).statusCode).toBe(200)
    for (let i = 0; i < 3; i++) {
      const refused = await t.call('GET', '/api/keys', { key: limited.key })
      expect(expectError(refused, 429, 'RateLimitExceeded').message).toContain('per API key')
      expect(rateHeaders(refused)).toEqual({ limit: 2, remaining: 0, reset: (START + MINUTE) / 1000 })
    }
    // The organization counted 2 of its 3: one more request of another key passes, the next not.
    const third = await t.call('GET', '/api/keys', { key: other.key })
    expect(third.statusCode).toBe(200)
    const fourth = await t.call('GET', '/api/keys', { key: other.key })
    expect(expectError(fourth, 429, 'RateLimitExceeded').message).toContain('per organization')
    expect(rateHeaders(fourth)).toEqual({ limit: 3, remaining: 0, reset: (START + MINUTE) / 1000 })
  })

  it("a request its organization's window refuses still counts in its key's window", async () => {
    t = await createTestApp({ rateLimitPerOrg: 2 })
    const k = await t.app.linkd.services.keys.create(t.orgId, {
      name: 'five an hour',
      preset: 'full',
      requestLimit: 5,
      timePeriod: 'hour',
    })
    for (let i = 0; i < 2; i++)
      expect((await t.call('GET', '/api/keys', { key: k.key })).statusCode).toBe(200)
    const refused = await t.call('GET', '/api/keys', { key: k.key })
    expect(expectError(refused, 429, 'RateLimitExceeded').message).toContain('per organization')
    t.clock.set(START + MINUTE)
    const next = await t.call('GET', '/api/keys', { key: k.key })
    expect(next.statusCode).toBe(200)
    expect(rateHeaders(next)).toEqual({ limit: 5, remaining: 1, reset: (START + HOUR) / 1000 })
  })

  it('the quota store counts tiers in order and stops after the first one over its limit', async () => {
    t = await createTestApp()
    const { limiter } = t.app.linkd
    const tiers = [
      { bucket: 'test:a', windowMs: HOUR, limit: 2 },
      { bucket: 'test:b', windowMs: MINUTE, limit: 1 },
      { bucket: 'test:c', windowMs: DAY, limit: 10 },
    ]
    const counts = async () => (await limiter.hitTiers(tiers, START + 5_000)).map((h) => h.count)
    expect(await counts()).toEqual([1, 1, 1])
    expect(await limiter.hitTiers(tiers, START + 5_000)).toEqual([
      { count: 2, resetAt: START + HOUR },
      { count: 2, resetAt: START + MINUTE },
    ])
    expect(await counts()).toEqual([3])
    expect((await limiter.peek('test:b', MINUTE, START)).count).toBe(2)
    expect((await limiter.peek('test:c', DAY, START)).count).toBe(1)
    expect(await limiter.hitTiers([], START)).toEqual([])
  })
})

describe('rate limit store', () => {
  it('uses fixed windows aligned to the window length and sweeps ended ones', () => {
    const store = createMemoryRateLimitStore()
    expect(store.hit('x', MINUTE, START + 5_000)).toEqual({ count: 1, resetAt: START + MINUTE })
    expect(store.hit('x', MINUTE, START + 59_999)).toEqual({ count: 2, resetAt: START + MINUTE })
    expect(store.peek('x', MINUTE, START + 59_999)).toEqual({ count: 2, resetAt: START + MINUTE })
    expect(store.hit('x', MINUTE, START + MINUTE)).toEqual({ count: 1, resetAt: START + 2 * MINUTE })
    store.hit('y', DAY, START)
    expect(store.size()).toBe(2)
    store.sweep(START + 2 * MINUTE)
    expect(store.size()).toBe(1)
  })

  it('evaluate gives remaining, reset in Unix seconds and Retry-After of at least 1', () => {
    expect(evaluate({ count: 3, resetAt: START + MINUTE }, 3, START)).toEqual({
      limit: 3,
      remaining: 0,
      reset: (START + MINUTE) / 1000,
      exceeded: false,
      retryAfter: 60,
    })
    const over = evaluate({ count: 4, resetAt: START + MINUTE }, 3, START + MINUTE - 10)
    expect(over.exceeded).toBe(true)
    expect(over.retryAfter).toBe(1)
    expect(evaluate({ count: 1, resetAt: START + 1500 }, 3, START).reset).toBe(
      Math.ceil((START + 1500) / 1000),
    )
  })
})
