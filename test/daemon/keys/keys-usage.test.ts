import { afterEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../support/app.js'
import { raw } from '../../support/responses.js'
import type { KeyActivity } from '../../../src/contract/keys.js'

const DAY = 86_400_000

type Activity = KeyActivity

describe('key activity log', () => {
  let t: TestApp
  afterEach(() => t.close())

  const activity = async (id: string, query = '') => {
    const res = await t.call('GET', `/api/keys/${id}/activity${query}`)
    expect(res.statusCode).toBe(200)
    return res.json<{ data: Activity[]; total: number }>()
  }

  it('records each request with endpoint, method, status, time, ip, user agent, referrer and error, newest first', async () => {
    t = await createTestApp()
    const k = await t.createKey({ name: 'logged', permissions: ['keys:read'] })
    const headers = {
      authorization: `Bearer ${k.key}`,
      'user-agent': 'linkctl/0.1 (test)',
      referer: 'https://console.example.com/keys',
    }
    await raw(t, {
      method: 'GET',
      url: '/api/keys?limit=10&search=x',
      headers,
      remoteAddress: '198.51.100.7',
    })
    t.clock.advance(1000)
    await raw(t, {
      method: 'POST',
      url: '/api/keys',
      headers,
      payload: { name: 'nope' },
      remoteAddress: '198.51.100.8',
    })
    t.clock.advance(1000)
    await raw(t, {
      method: 'GET',
      url: '/api/keys/key_missing',
      headers: { authorization: `Bearer ${k.key}` },
    })

    const log = await activity(k.id)
    expect(log.total).toBe(3)
    const [third, second, first] = log.data
    expect(first).toMatchObject({
      timestamp: '2026-11-21T10:00:00.000Z',
      endpoint: '/api/keys',
      method: 'GET',
      statusCode: 200,
      ip: '198.51.100.7',
      userAgent: 'linkctl/0.1 (test)',
      referrer: 'https://console.example.com/keys',
      error: null,
    })
    expect(first!.country === null || /^[A-Z]{2}$/.test(first!.country)).toBe(true)
    expect(first!.id).toMatch(/^act_/)
    expect(typeof first!.responseTimeMs).toBe('number')
    expect(first!.responseTimeMs).toBeGreaterThanOrEqual(0)
    expect(second).toMatchObject({
      timestamp: '2026-11-21T10:00:01.000Z',
      endpoint: '/api/keys',
      method: 'POST',
      statusCode: 403,
      ip: '198.51.100.8',
    })
    expect(second!.error).toMatch(/^Forbidden: .*keys:write/)
    expect(third).toMatchObject({
      timestamp: '2026-11-21T10:00:02.000Z',
      endpoint: '/api/keys/key_missing',
      statusCode: 404,
      ip: '127.0.0.1',
      userAgent: 'lightMyRequest',
      referrer: null,
      country: null,
    })
    expect(third!.error).toMatch(/^NotFound: /)
  })

  it('keeps requests of the same millisecond newest first', async () => {
    t = await createTestApp()
    const k = await t.createKey({ name: 'burst', preset: 'full' })
    const urls = [
      '/api/keys?n=1',
      `/api/keys/${k.id}`,
      '/api/keys?n=3',
      `/api/keys/${k.id}/activity`,
      '/api/keys?n=5',
      '/api/keys/key_x',
    ]
    for (const url of urls) await t.call('GET', url, { key: k.key })
    const log = await activity(k.id)
    expect(log.data.map((a) => a.endpoint)).toEqual(urls.map((u) => u.split('?')[0]).reverse())
  })

  it('logs a request whose error echoes a NUL character (as U+FFFD), and the others of its flush', async () => {
    t = await createTestApp()
    const k = await t.createKey({ name: 'nul', preset: 'full' })
    await t.call('GET', '/api/keys', { key: k.key })
    // The query parameter's name is refused by name: the error message holds the NUL.
    const refused = await t.call('GET', `/api/keys/${k.id}/activity?a%00=1`, { key: k.key })
    expect(refused.statusCode).toBe(400)
    const log = await activity(k.id)
    expect(log.total).toBe(2)
    expect(log.data[0]!.error).toContain('a\ufffd')
    expect(log.data[0]!.error).not.toContain('\u0000')
  })

  it('does not log requests that failed authentication, nor other keys', async () => {
    t = await createTestApp()
    const k = await t.createKey({ name: 'quiet', preset: 'full' })
    await t.call('GET', '/api/keys')
    await t.call('GET', '/api/keys', { key: 'lk_live_short' })
    await t.call('POST', `/api/keys/${k.id}/deactivate`)
    await t.call('GET', '/api/keys', { key: k.key }) // 401 inactive
    expect((await activity(k.id)).total).toBe(0)
    const owner = (await t.call('GET', '/api/keys?search=owner')).json().data[0].id as string
    expect((await activity(owner)).total).toBeGreaterThanOrEqual(3)
  })

  it('logs rate-limited and IP-refused requests with their error', async () => {
    t = await createTestApp()
    const k = await t.createKey({
      name: 'limited',
      preset: 'full',
      requestLimit: 1,
      allowedIps: ['127.0.0.1'],
    })
    await t.call('GET', '/api/keys', { key: k.key })
    await raw(t, {
      method: 'GET',
      url: '/api/keys',
      headers: { authorization: `Bearer ${k.key}` },
      remoteAddress: '10.9.9.9',
    })
    await t.call('GET', '/api/keys', { key: k.key })
    const log = await activity(k.id)
    expect(log.data.map((a) => [a.statusCode, a.error?.split(':')[0] ?? null])).toEqual([
      [429, 'RateLimitExceeded'],
      [403, 'Forbidden'],
      [200, null],
    ])
  })
})

describe('key usage counters', () => {
  let t: TestApp
  afterEach(() => t.close())

  const usageOf = async (id: string) => {
    const k = (await t.call('GET', `/api/keys/${id}`)).json()
    return { ...k.usage, lastUsedAt: k.lastUsedAt, lastUsedIp: k.lastUsedIp }
  }

  it('counts total, today and this month, with last use time and IP', async () => {
    t = await createTestApp()
    const k = await t.createKey({ name: 'counted', preset: 'full' })
    expect(await usageOf(k.id)).toEqual({
      totalRequests: 0,
      requestsToday: 0,
      requestsThisMonth: 0,
      lastUsedAt: null,
      lastUsedIp: null,
    })
    await t.call('GET', '/api/keys', { key: k.key })
    t.clock.advance(60_000)
    await raw(t, {
      method: 'GET',
      url: '/api/keys',
      headers: { 'x-api-key': k.key },
      remoteAddress: '203.0.113.50',
    })
    // failed requests count too
    await t.call('GET', '/api/keys/key_missing', { key: k.key })
    expect(await usageOf(k.id)).toEqual({
      totalRequests: 3,
      requestsToday: 3,
      requestsThisMonth: 3,
      lastUsedAt: '2026-11-21T10:01:00.000Z',
      lastUsedIp: '127.0.0.1',
    })
    // the list shows the same figures
    const listed = (await t.call('GET', '/api/keys?search=counted')).json().data[0]
    expect(listed.usage).toEqual({ totalRequests: 3, requestsToday: 3, requestsThisMonth: 3 })
  })

  it('requestsToday resets at the next UTC day and requestsThisMonth at the next month', async () => {
    t = await createTestApp()
    const k = await t.createKey({ name: 'calendar', preset: 'full' })
    const use = async (n: number) => {
      for (let i = 0; i < n; i++)
        expect((await t.call('GET', `/api/keys/${k.id}`, { key: k.key })).statusCode).toBe(200)
    }
    t.clock.set('2026-11-29T23:59:59.000Z')
    await use(3)
    expect(await usageOf(k.id)).toMatchObject({ totalRequests: 3, requestsToday: 3, requestsThisMonth: 3 })

    t.clock.set('2026-11-30T00:00:00.000Z')
    expect(await usageOf(k.id)).toMatchObject({ totalRequests: 3, requestsToday: 0, requestsThisMonth: 3 })
    await use(2)
    expect(await usageOf(k.id)).toMatchObject({
      totalRequests: 5,
      requestsToday: 2,
      requestsThisMonth: 5,
      lastUsedAt: '2026-11-30T00:00:00.000Z',
    })

    t.clock.set('2026-12-01T00:00:00.000Z')
    expect(await usageOf(k.id)).toMatchObject({ totalRequests: 5, requestsToday: 0, requestsThisMonth: 0 })
    await use(1)
    expect(await usageOf(k.id)).toMatchObject({ totalRequests: 6, requestsToday: 1, requestsThisMonth: 1 })

    // a quiet day later
    t.clock.advance(2 * DAY)
    expect(await usageOf(k.id)).toMatchObject({ totalRequests: 6, requestsToday: 0, requestsThisMonth: 1 })
  })

  it('requests buffered across a day boundary are split correctly', async () => {
    t = await createTestApp()
    // a key without scopes: its requests are refused (403) before any route reads keys, which
    // would flush the buffer
    const k = await t.createKey({ name: 'midnight' })
    await t.app.linkd.services.keys.usage.flush()
    t.clock.set('2026-11-30T23:59:59.500Z')
    await t.call('GET', '/api/keys', { key: k.key })
    await t.call('GET', '/api/keys', { key: k.key })
    t.clock.set('2026-12-01T00:00:00.200Z')
    await t.call('GET', '/api/keys', { key: k.key })
    // all three were still buffered; one flush applies both days in order
    expect(t.app.linkd.services.keys.usage.pending).toBe(3)
    expect(await usageOf(k.id)).toMatchObject({
      totalRequests: 3,
      requestsToday: 1,
      requestsThisMonth: 1,
      lastUsedAt: '2026-12-01T00:00:00.200Z',
    })
  })
})
