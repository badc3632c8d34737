import { afterEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../support/app.js'
import { expectError } from '../../support/responses.js'

const TOKEN = 'metrics-token-0123456789'
const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8'

describe('GET /metrics', () => {
  let t: TestApp | undefined
  afterEach(async () => {
    await t?.close()
    t = undefined
  })
  const scrape = (headers: Record<string, string> = {}, remoteAddress = '127.0.0.1') =>
    t!.app.inject({ method: 'GET', url: '/metrics', headers, remoteAddress })

  it('answers loopback clients with the Prometheus text format and linkd_ process metrics', async () => {
    t = await createTestApp()
    for (const address of ['127.0.0.1', '::1']) {
      const res = await scrape({}, address)
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toBe(PROMETHEUS_TEXT)
      expect(res.body).toMatch(/^# TYPE linkd_process_cpu_seconds_total counter$/m)
      expect(res.body).toMatch(/^linkd_nodejs_heap_size_used_bytes \d+/m)
      expect(res.body).not.toMatch(/^process_cpu/m)
    }
  })

  it('refuses other addresses with 403 and the error body', async () => {
    t = await createTestApp()
    expectError(await scrape({}, '203.0.113.7'), 403, 'Forbidden', '/metrics')
  })

  it('behind a trusted proxy, judges the forwarded client, not the proxy on loopback', async () => {
    t = await createTestApp({ trustProxy: '127.0.0.1' })
    expectError(await scrape({ 'x-forwarded-for': '203.0.113.7' }), 403, 'Forbidden')
    expect((await scrape({ 'x-forwarded-for': '127.0.0.1' })).statusCode).toBe(200)
  })

  it('with a token: required from everywhere, loopback included; the right one from anywhere', async () => {
    t = await createTestApp({ metricsToken: TOKEN })
    expectError(await scrape(), 401, 'Unauthorized')
    expectError(await scrape({ authorization: `Bearer ${TOKEN}x` }), 401, 'Unauthorized')
    expectError(await scrape({ authorization: `Basic ${TOKEN}` }), 401, 'Unauthorized')
    const wrong = await scrape({ authorization: 'Bearer nope' }, '203.0.113.7')
    expectError(wrong, 401, 'Unauthorized')
    expect(wrong.body).not.toContain(TOKEN)
    const res = await scrape({ authorization: `Bearer ${TOKEN}` }, '203.0.113.7')
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe(PROMETHEUS_TEXT)
  })

  it('each app has its own registry', async () => {
    t = await createTestApp()
    const other = await createTestApp()
    try {
      expect(other.app.linkd.metrics.registry).not.toBe(t.app.linkd.metrics.registry)
      expect((await scrape()).statusCode).toBe(200)
    } finally {
      await other.close()
    }
  })
})
