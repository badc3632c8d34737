import { request as httpRequest, type IncomingMessage } from 'node:http'
import { Writable } from 'node:stream'
import { afterEach, describe, expect, it } from 'vitest'
import type { Link } from '../../../src/contract/links.js'
import { createTestApp, type TestApp } from '../../support/app.js'
import { analytics, CHROME_WINDOWS, flush, makeLink, SAFARI_IPHONE } from '../../support/redirect.js'

/**
 * Hot links are answered before Fastify (daemon/modules/redirect/fast-path.ts). These tests run
 * over real HTTP and count the requests that reach Fastify's hooks, so each one knows which path
 * answered, and check that both answer alike.
 */
interface Served {
  status: number
  headers: Record<string, string>
  body: string
  /** Whether the request reached Fastify (false: the fast path answered). */
  viaFastify: boolean
}

let t: TestApp
let url: string
let reachedFastify = 0

async function start(overrides: Record<string, unknown> = {}, logs?: string[]) {
  const logger = logs
    ? {
        level: 'info',
        stream: new Writable({
          write(chunk: Buffer, _enc, done) {
            logs.push(...chunk.toString().trim().split('\n'))
            done()
          },
        }),
      }
    : undefined
  t = await createTestApp({ shortDomain: 'sho.rt', ...overrides }, logger ? { logger } : {})
  t.app.addHook('onRequest', (_req, _reply, done) => {
    reachedFastify++
    done()
  })
  url = await t.app.listen({ host: '127.0.0.1', port: 0 })
}

async function get(
  path: string,
  o: { method?: string; headers?: Record<string, string> } = {},
): Promise<Served> {
  const before = reachedFastify
  // node:http, not fetch: fetch does not let a client choose the Host header.
  const res = await new Promise<IncomingMessage>((resolve, reject) =>
    httpRequest(
      `${url}${path}`,
      {
        method: o.method ?? 'GET',
        headers: { host: 'sho.rt', 'user-agent': CHROME_WINDOWS, accept: 'text/html', ...o.headers },
      },
      resolve,
    )
      .on('error', reject)
      .end(),
  )
  let body = ''
  for await (const chunk of res) body += String(chunk)
  const headers: Record<string, string> = {}
  for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') headers[k] = v
  return { status: res.statusCode ?? 0, headers, body, viaFastify: reachedFastify > before }
}

/** What must match between the two paths: everything but the per-request values. */
const comparable = (s: Served) => {
  const { date, 'x-request-id': id, 'x-ratelimit-remaining': remaining, connection, ...rest } = s.headers
  expect(connection).toBe('keep-alive')
  expect(id).toMatch(/^req_/)
  expect(date).toBeDefined()
  expect(Number(remaining)).toBeGreaterThanOrEqual(0)
  return { status: s.status, headers: rest, body: s.body }
}

afterEach(async () => {
  await t.close()
})

describe('the redirect fast path', () => {
  it('answers a hot link exactly as the Fastify route does, for GET and HEAD and every redirect type', async () => {
    await start()
    for (const redirectType of [301, 302, 307, 308]) {
      const link = await makeLink(t, {
        destinationUrl: `https://example.com/ü/${redirectType}?a=1&b="x"`,
        redirectType,
      })
      const first = await get(`/${link.shortCode}`)
      const second = await get(`/${link.shortCode}`)
      expect(first.viaFastify).toBe(true)
      expect(second.viaFastify).toBe(false)
      expect(comparable(second)).toEqual(comparable(first))
      expect(second.status).toBe(redirectType)
      expect(second.headers.location).toBe(`https://example.com/%C3%BC/${redirectType}?a=1&b=%22x%22`)
      expect(second.headers['cache-control']).toBe('private, max-age=90')
      expect(second.headers['x-content-type-options']).toBe('nosniff')
      expect(second.headers['content-length']).toBe('0')
      expect(second.body).toBe('')
      expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id'])

      // HEAD: the same status and headers as GET, on both paths.
      const head = await get(`/${link.shortCode}`, { method: 'HEAD' })
      expect(head.viaFastify).toBe(false)
      expect(comparable(head)).toEqual(comparable(second))
      t.app.linkd.services.redirect.cache.clear()
      const headViaFastify = await get(`/${link.shortCode}`, { method: 'HEAD' })
      expect(headViaFastify.viaFastify).toBe(true)
      expect(comparable(headViaFastify)).toEqual(comparable(second))
    }
  })

  it('never serves a stale link: an update, a deactivation and an expiry take effect at once', async () => {
    await start()
    const link = await makeLink(t, { expiresAt: new Date(t.clock.now() + 60_000).toISOString() })
    await get(`/${link.shortCode}`)
    expect((await get(`/${link.shortCode}`)).viaFastify).toBe(false)

    const patched = await t.call('PATCH', `/api/use/links/${link.id}`, {
      body: { destinationUrl: 'https://example.com/moved' },
    })
    expect(patched.statusCode).toBe(200)
    expect((await get(`/${link.shortCode}`)).headers.location).toBe('https://example.com/moved')
    const hot = await get(`/${link.shortCode}`)
    expect(hot).toMatchObject({ viaFastify: false, status: 302 })
    expect(hot.headers.location).toBe('https://example.com/moved')

    t.clock.advance(60_000)
    const expired = await get(`/${link.shortCode}`, { headers: { accept: 'application/json' } })
    expect(expired.status).toBe(410)
    expect(expired.viaFastify).toBe(true)
    expect(JSON.parse(expired.body)).toMatchObject({ error: 'Gone', statusCode: 410 })

    const other = await makeLink(t)
    await get(`/${other.shortCode}`)
    expect((await get(`/${other.shortCode}`)).viaFastify).toBe(false)
    await t.call('PATCH', `/api/use/links/${other.id}`, { body: { status: 'inactive' } })
    const inactive = await get(`/${other.shortCode}`)
    expect(inactive).toMatchObject({ status: 404, viaFastify: true })
  })

  it('answers links with rules and a forwarded query exactly as the Fastify route does', async () => {
    await start()
    const link = await makeLink(t, {
      destinationUrl: 'https://example.com/p?a=1&b=2#frag',
      rules: [
        { conditions: [{ type: 'os', value: 'ios' }], destinationUrl: 'https://example.com/ios?x=1' },
        { conditions: [{ type: 'language', value: 'de' }], destinationUrl: 'https://example.com/de' },
      ],
    })
    const cases: Array<{ path: string; headers?: Record<string, string>; location: string }> = [
      { path: `/${link.shortCode}`, location: 'https://example.com/p?a=1&b=2#frag' },
      {
        path: `/${link.shortCode}?a=9&a=8&qr=1&c=%20x`,
        location: 'https://example.com/p?b=2&a=9&a=8&c=%20x#frag',
      },
      {
        path: `/${link.shortCode}?x=2`,
        headers: { 'user-agent': SAFARI_IPHONE },
        location: 'https://example.com/ios?x=2',
      },
      {
        path: `/${link.shortCode}`,
        headers: { 'accept-language': 'de-AT,en' },
        location: 'https://example.com/de',
      },
    ]
    // Through Fastify first (the link is not cached yet), then each case on both paths.
    await get(`/${link.shortCode}`)
    for (const c of cases) {
      const fast = await get(c.path, { ...(c.headers ? { headers: c.headers } : {}) })
      expect(fast.viaFastify).toBe(false)
      expect(fast.headers.location).toBe(c.location)
      t.app.linkd.services.redirect.cache.clear()
      const route = await get(c.path, { ...(c.headers ? { headers: c.headers } : {}) })
      expect(route.viaFastify).toBe(true)
      expect(comparable(fast)).toEqual(comparable(route))
    }
  })

  it('answers links with variants on the fast path, the same variant and bytes as the route', async () => {
    await start()
    const variants = [
      { destinationUrl: 'https://example.com/a', weight: 50 },
      { destinationUrl: 'https://example.com/b', weight: 50 },
    ]
    const link = await makeLink(t, { variants })
    const routed = await get(`/${link.shortCode}?x=1`)
    expect(routed.viaFastify).toBe(true)
    expect(variants.map((v) => `${v.destinationUrl}?x=1`)).toContain(routed.headers.location)
    for (let i = 0; i < 3; i++) {
      const fast = await get(`/${link.shortCode}?x=1`)
      expect(fast.viaFastify).toBe(false)
      expect(comparable(fast)).toEqual(comparable(routed))
    }
  })

  it('leaves links with maxClicks, before startsAt or expired with an expiredUrl to the route', async () => {
    await start()
    const capped = await makeLink(t, { maxClicks: 2, expiredUrl: 'https://example.com/gone' })
    const seen = [
      await get(`/${capped.shortCode}`),
      await get(`/${capped.shortCode}`),
      await get(`/${capped.shortCode}`),
    ]
    expect(seen.map((s) => [s.viaFastify, s.headers.location])).toEqual([
      [true, 'https://example.com/landing'],
      [true, 'https://example.com/landing'],
      [true, 'https://example.com/gone'],
    ])
    const later = await makeLink(t, { startsAt: new Date(t.clock.now() + 60_000).toISOString() })
    expect(await get(`/${later.shortCode}`)).toMatchObject({ status: 404, viaFastify: true })
    t.clock.advance(60_000)
    expect(await get(`/${later.shortCode}`)).toMatchObject({ status: 302, viaFastify: true })
    expect(await get(`/${later.shortCode}`)).toMatchObject({ status: 302, viaFastify: false })
  })

  it('leaves password-protected links and links with og to the route, however often visited', async () => {
    await start()
    const locked = await makeLink(t, { password: 'fast-path-secret' })
    const og = await makeLink(t, { og: { title: 'Preview' } })
    for (let i = 0; i < 3; i++) {
      expect(await get(`/${locked.shortCode}`)).toMatchObject({ status: 200, viaFastify: true })
      const crawler = await get(`/${og.shortCode}`, { headers: { 'user-agent': 'Twitterbot/1.0' } })
      expect(crawler).toMatchObject({ status: 200, viaFastify: true })
      expect(crawler.body).toContain('og:title')
      expect(await get(`/${og.shortCode}`)).toMatchObject({ status: 302, viaFastify: true })
    }
  })

  it('counts in the per-IP redirect window: at the limit passes, one past gets 429 with Retry-After', async () => {
    await start({ rateLimitRedirectsPerIp: 3 })
    const link = await makeLink(t)
    const seen: Served[] = []
    for (let i = 0; i < 4; i++) seen.push(await get(`/${link.shortCode}`))
    expect(seen.map((s) => s.status)).toEqual([302, 302, 302, 429])
    // (The 429 comes from Fastify's access hook, which runs before the counting hook of this test.)
    expect(seen.slice(0, 3).map((s) => s.viaFastify)).toEqual([true, false, false])
    expect(seen.map((s) => s.headers['x-ratelimit-remaining'])).toEqual(['2', '1', '0', '0'])
    expect(seen[3]!.headers['retry-after']).toMatch(/^\d+$/)
    expect(JSON.parse(seen[3]!.body)).toMatchObject({ error: 'RateLimitExceeded', statusCode: 429 })
  })

  it('behind a trusted proxy, uses X-Forwarded-For and X-Forwarded-Host as the rest of the API does', async () => {
    await start({ rateLimitRedirectsPerIp: 1, trustProxy: true })
    const link = await makeLink(t)
    const via = (ip: string) =>
      get(`/${link.shortCode}`, {
        headers: { host: '127.0.0.1', 'x-forwarded-host': 'sho.rt', 'x-forwarded-for': ip },
      })
    expect((await via('203.0.113.1')).status).toBe(302)
    const second = await via('203.0.113.2')
    expect(second).toMatchObject({ status: 302, viaFastify: false })
    expect((await via('203.0.113.2')).status).toBe(429)
  })

  it('counts an IPv6 visitor per /64: rotating addresses within the block does not reset the window', async () => {
    await start({ rateLimitRedirectsPerIp: 2, trustProxy: true })
    const link = await makeLink(t)
    const via = (ip: string) =>
      get(`/${link.shortCode}`, {
        headers: { host: '127.0.0.1', 'x-forwarded-host': 'sho.rt', 'x-forwarded-for': ip },
      })
    expect((await via('2001:db8:7:7::1')).status).toBe(302)
    expect(await via('2001:db8:7:7::2')).toMatchObject({ status: 302, viaFastify: false })
    expect((await via('2001:db8:7:7:1:2:3:4')).status).toBe(429)
    expect((await via('2001:db8:7:8::1')).status).toBe(302)
  })

  it('ignores X-Forwarded-* headers when no proxy is trusted', async () => {
    await start({ rateLimitRedirectsPerIp: 2 })
    const link = await makeLink(t)
    const spoof = (ip: string) =>
      get(`/${link.shortCode}`, {
        headers: { 'x-forwarded-for': ip, 'x-forwarded-host': 'elsewhere.example' },
      })
    expect((await spoof('203.0.113.1')).status).toBe(302)
    expect(await spoof('203.0.113.2')).toMatchObject({ status: 302, viaFastify: false })
    expect((await spoof('203.0.113.3')).status).toBe(429)
  })

  it('records fast-path clicks with their UTM parameters (encoded too), QR scans and referrer', async () => {
    await start()
    const link: Link = await makeLink(t)
    for (let i = 0; i < 5; i++)
      await get(`/${link.shortCode}?utm_source=newsletter&utm_campaign=spring`, {
        headers: { referer: 'https://news.example/today' },
      })
    // Percent-encoded names and the QR marker among other pairs count as well.
    expect((await get(`/${link.shortCode}?ref=x&%75tm_medium=e%6Dail`)).viaFastify).toBe(false)
    expect((await get(`/${link.shortCode}?ref=x&qr=1`)).viaFastify).toBe(false)
    expect((await get(`/${link.shortCode}?ref=x&src=y`)).viaFastify).toBe(false)
    await flush(t)
    const a = await analytics(t, link.id)
    expect(a.totalClicks).toBe(8)
    expect(a.qrScans).toBe(1)
    expect(a.utmSources).toEqual([{ value: 'newsletter', clicks: 5 }])
    expect(a.utmMediums).toEqual([{ value: 'email', clicks: 1 }])
    expect(a.utmCampaigns).toEqual([{ value: 'spring', clicks: 5 }])
    expect(a.referrers).toEqual([{ domain: 'news.example', clicks: 5 }])
  })

  it('writes the same request log line as Fastify, with the request id the client saw', async () => {
    const logs: string[] = []
    await start({ logLevel: 'info' }, logs)
    const link = await makeLink(t)
    const routed = await get(`/${link.shortCode}`)
    const fast = await get(`/${link.shortCode}?x=1`)
    expect(routed.viaFastify).toBe(true)
    expect(fast.viaFastify).toBe(false)
    const lineOf = (res: typeof fast) => {
      const mine = logs
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((l) => l.reqId === res.headers['x-request-id'])
      expect(mine.map((l) => l.msg)).toEqual(['request completed'])
      expect(typeof mine[0]!.responseTime).toBe('number')
      const { time: _time, responseTime: _rt, reqId: _id, pid: _pid, hostname: _host, ...rest } = mine[0]!
      return rest
    }
    expect(lineOf(fast)).toEqual(lineOf(routed))
    expect(lineOf(fast)).toMatchObject({
      req: { method: 'GET', url: `/${link.shortCode}`, host: 'sho.rt' },
      res: { statusCode: 302 },
    })
  })
})
