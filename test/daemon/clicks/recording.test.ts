import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { buildApp } from '../../../daemon/app.js'
import { loadConfig } from '../../../daemon/config.js'
import { migrate } from '../../../daemon/db/migrate.js'
import { openDatabase } from '../../../daemon/db/open.js'
import { createTestApp, type TestApp } from '../../support/app.js'
import { FakeClock } from '../../support/clock.js'
import { buildMmdb } from '../../support/mmdb.js'
import { createTestDatabase, onPostgres } from '../../support/postgres.js'
import {
  CHROME_WINDOWS,
  DAY,
  FIREFOX_LINUX,
  GOOGLEBOT,
  SAFARI_IPAD,
  SAFARI_IPHONE,
  SLACKBOT,
  analytics,
  captureEvents,
  flush,
  makeLink,
  visit,
} from '../../support/redirect.js'
import type { ClicksTable } from '../../../daemon/db/schema.js'

/** The stored click rows in time order (rows of one millisecond in no particular order). */
const clickRows = (t: TestApp): Promise<ClicksTable[]> =>
  t.db.kysely.selectFrom('clicks').selectAll().orderBy('ts').execute()
const linkClicks = async (t: TestApp, id: string) =>
  (await t.call('GET', `/api/use/links/${id}`)).json<{ clicks: number }>().clicks

describe('bots and link previews', () => {
  let t: TestApp
  afterEach(() => t.close())

  it('redirects Googlebot, Slackbot, HEAD requests and agent-less requests but counts them only as bots', async () => {
    t = await createTestApp()
    const link = await makeLink(t)
    const events = captureEvents(t, 'link.clicked', 'qr_code.scanned')
    const bots = [
      await visit(t, link.shortCode, { ua: GOOGLEBOT }),
      await visit(t, link.shortCode, { ua: SLACKBOT }),
      await visit(t, link.shortCode, { ua: 'facebookexternalhit/1.1' }),
      await visit(t, link.shortCode, { method: 'HEAD' }),
      await visit(t, link.shortCode, { ua: '' }),
      await visit(t, link.shortCode, { ua: GOOGLEBOT, query: 'qr=1' }),
    ]
    for (const res of bots) {
      expect(res.statusCode).toBe(302)
      expect(res.headers.location).toBe('https://example.com/landing')
    }
    const a = await analytics(t, link.id)
    expect(a.totalClicks).toBe(0)
    expect(a.qrScans).toBe(0)
    expect(a.uniqueVisitors).toBe(0)
    expect(a.botDetection).toEqual({ count: 6, percentage: 100 })
    expect(a.devices).toEqual([])
    expect(a.timeSeries.at(-1)).toMatchObject({ clicks: 0, bots: 6 })
    expect(await linkClicks(t, link.id)).toBe(0)
    expect(events).toEqual([])
    const reasons = (await clickRows(t)).map((r) => [r.is_bot, r.bot_reason])
    expect(reasons.sort()).toEqual([
      [1, 'head-request'],
      [1, 'link-preview'],
      [1, 'link-preview'],
      [1, 'no-user-agent'],
      [1, 'user-agent'],
      [1, 'user-agent'],
    ])
  })

  it('bot percentage is of all redirects', async () => {
    t = await createTestApp()
    const link = await makeLink(t)
    await visit(t, link.shortCode)
    await visit(t, link.shortCode, { ip: '10.0.0.2' })
    await visit(t, link.shortCode, { ua: GOOGLEBOT })
    const a = await analytics(t, link.id)
    expect(a.totalClicks).toBe(2)
    expect(a.botDetection).toEqual({ count: 1, percentage: 33.33 })
    expect(await linkClicks(t, link.id)).toBe(2)
  })
})

describe('what a click records', () => {
  let t: TestApp
  afterEach(() => t.close())

  it('a human click: links.clicks, link.clicked with its webhook payload fields, after the flush commits', async () => {
    t = await createTestApp()
    const link = await makeLink(t)
    const events = captureEvents(t, 'link.clicked', 'qr_code.scanned')
    await visit(t, link.shortCode, {
      ip: '8.8.8.8',
      ua: SAFARI_IPHONE,
      headers: { referer: 'https://www.news.example/story?id=1' },
    })
    expect(events).toEqual([])
    await flush(t)
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({ type: 'link.clicked', organizationId: t.orgId, at: t.clock.now() })
    expect(events[0]!.data).toEqual({
      linkId: link.id,
      shortUrl: link.shortUrl,
      clickedAt: new Date(t.clock.now()).toISOString(),
      country: 'United States',
      countryCode: 'US',
      device: 'mobile',
      browser: 'Mobile Safari',
      os: 'iOS',
      referrer: 'news.example',
    })
    expect(await linkClicks(t, link.id)).toBe(1)
  })

  it('without a referrer or a known place the event says so', async () => {
    t = await createTestApp()
    const link = await makeLink(t)
    const events = captureEvents(t, 'link.clicked')
    await visit(t, link.shortCode, { ip: '192.168.1.20' }) // the bundled database says AU
    await flush(t)
    expect(events[0]!.data).toEqual({
      linkId: link.id,
      shortUrl: link.shortUrl,
      clickedAt: new Date(t.clock.now()).toISOString(),
      country: null,
      countryCode: null,
      device: 'desktop',
      browser: 'Chrome',
      os: 'Windows',
    })
  })

  it('a QR scan (?qr=1): counted as a click and a scan, announced as qr_code.scanned only', async () => {
    t = await createTestApp()
    const link = await makeLink(t)
    const events = captureEvents(t, 'link.clicked', 'qr_code.scanned')
    await visit(t, link.shortCode, { query: 'qr=1', ip: '8.8.8.8', ua: SAFARI_IPHONE })
    await visit(t, link.shortCode, { query: 'qr=0', ip: '8.8.4.4' })
    await flush(t)
    expect(events.map((e) => e.type)).toEqual(['qr_code.scanned', 'link.clicked'])
    expect(events[0]!.data).toEqual({
      qrCodeId: `qr_${link.id.replace(/^lnk_/, '')}`,
      linkId: link.id,
      shortUrl: link.shortUrl,
      scannedAt: new Date(t.clock.now()).toISOString(),
      country: 'United States',
      device: 'mobile',
      browser: 'Mobile Safari',
      os: 'iOS',
    })
    const a = await analytics(t, link.id)
    expect(a.totalClicks).toBe(2)
    expect(a.qrScans).toBe(1)
    expect(await linkClicks(t, link.id)).toBe(2)
  })

  it('device, browser and OS from the user agent', async () => {
    t = await createTestApp()
    const link = await makeLink(t)
    await visit(t, link.shortCode, { ua: SAFARI_IPHONE, ip: '10.0.0.1' })
    await visit(t, link.shortCode, { ua: SAFARI_IPAD, ip: '10.0.0.2' })
    await visit(t, link.shortCode, { ua: FIREFOX_LINUX, ip: '10.0.0.3' })
    await visit(t, link.shortCode, { ua: CHROME_WINDOWS, ip: '10.0.0.4' })
    await visit(t, link.shortCode, { ua: 'Mozilla/5.0 (Unknown Thing)', ip: '10.0.0.5' })
    const a = await analytics(t, link.id)
    expect(a.devices).toEqual([
      { device: 'desktop', clicks: 3, percentage: 60 },
      { device: 'mobile', clicks: 1, percentage: 20 },
      { device: 'tablet', clicks: 1, percentage: 20 },
    ])
    expect(a.browsers.map((b) => [b.browser, b.clicks])).toEqual([
      ['Mobile Safari', 2],
      ['Chrome', 1],
      ['Firefox', 1],
      ['Unknown', 1],
    ])
    expect(a.os.map((o) => [o.os, o.clicks])).toEqual([
      ['iOS', 2],
      ['Linux', 1],
      ['Unknown', 1],
      ['Windows', 1],
    ])
  })

  it('referrer domains: host of Referer without www., absent referrers not listed', async () => {
    t = await createTestApp()
    const link = await makeLink(t)
    await visit(t, link.shortCode, { headers: { referer: 'https://www.google.com/search?q=x' } })
    await visit(t, link.shortCode, { headers: { referer: 'https://google.com/' } })
    await visit(t, link.shortCode, { headers: { referer: 'https://t.co/abc' } })
    await visit(t, link.shortCode, { headers: { referer: 'not a url' } })
    await visit(t, link.shortCode)
    const a = await analytics(t, link.id)
    expect(a.totalClicks).toBe(5)
    expect(a.referrers).toEqual([
      { domain: 'google.com', clicks: 2 },
      { domain: 't.co', clicks: 1 },
    ])
  })

  it('UTM parameters from the request, each falling back to the destination URL', async () => {
    t = await createTestApp()
    const link = await makeLink(t, {
      destinationUrl: 'https://example.com/?utm_source=newsletter&utm_medium=email&utm_campaign=launch',
    })
    await visit(t, link.shortCode)
    await visit(t, link.shortCode, { query: 'utm_source=twitter&utm_campaign=promo' })
    await visit(t, link.shortCode, { query: 'utm_source=&utm_medium=social' })
    const a = await analytics(t, link.id)
    expect(a.utmSources).toEqual([
      { value: 'newsletter', clicks: 2 },
      { value: 'twitter', clicks: 1 },
    ])
    expect(a.utmMediums).toEqual([
      { value: 'email', clicks: 2 },
      { value: 'social', clicks: 1 },
    ])
    expect(a.utmCampaigns).toEqual([
      { value: 'launch', clicks: 2 },
      { value: 'promo', clicks: 1 },
    ])
  })

  it('country from the bundled database (8.8.8.8 → US); private addresses are Unknown', async () => {
    t = await createTestApp()
    const link = await makeLink(t)
    await visit(t, link.shortCode, { ip: '8.8.8.8' })
    await visit(t, link.shortCode, { ip: '::ffff:8.8.4.4' })
    await visit(t, link.shortCode, { ip: '127.0.0.1' })
    const a = await analytics(t, link.id)
    expect(a.geography).toEqual([
      { country: 'US', region: null, clicks: 2, percentage: 66.67 },
      { country: 'Unknown', region: null, clicks: 1, percentage: 33.33 },
    ])
  })

  it('raw IP addresses are never stored; the visitor hash changes every UTC day', async () => {
    t = await createTestApp()
    const link = await makeLink(t)
    // A millisecond apart, so that the rows read back in this order.
    for (const ip of ['203.0.113.77', '203.0.113.77', '203.0.113.78']) {
      await visit(t, link.shortCode, { ip })
      t.clock.advance(1)
    }
    t.clock.advance(DAY)
    await visit(t, link.shortCode, { ip: '203.0.113.77' })
    await flush(t)
    const rows = await clickRows(t)
    expect(rows).toHaveLength(4)
    for (const table of ['clicks', 'link_click_dims', 'link_day_visitors', 'link_click_hours'] as const) {
      const dump = JSON.stringify(await t.db.kysely.selectFrom(table).selectAll().execute())
      expect(dump).not.toContain('203.0.113')
    }
    for (const r of rows) expect(r.visitor_hash).toMatch(/^[0-9a-f]{64}$/)
    const [a1, a2, b, nextDay] = rows.map((r) => r.visitor_hash)
    expect(a1).toBe(a2)
    expect(b).not.toBe(a1)
    expect(nextDay).not.toBe(a1)
  })

  it('server response time of each redirect, averaged in analytics', async () => {
    t = await createTestApp()
    const link = await makeLink(t)
    await visit(t, link.shortCode)
    await visit(t, link.shortCode, { ua: GOOGLEBOT })
    await flush(t)
    const rows = await clickRows(t)
    for (const r of rows) expect(r.response_ms).toBeGreaterThan(0)
    const a = await analytics(t, link.id)
    const mean = (rows[0]!.response_ms + rows[1]!.response_ms) / 2
    expect(a.responseTime).toBeCloseTo(mean, 1)
  })
})

describe('group commit', () => {
  let t: TestApp
  afterEach(() => t.close())

  it('writes when 250 clicks are buffered, not before', async () => {
    t = await createTestApp()
    const link = await makeLink(t)
    const { redirect, clicks } = t.app.linkd.services
    const resolved = (await redirect.cache.get('', link.shortCode))!
    const click = (i: number) => ({
      link: resolved,
      ts: t.clock.now(),
      method: 'GET',
      ip: `10.1.${i >> 8}.${i & 255}`,
      userAgent: CHROME_WINDOWS,
      referer: undefined,
      query: {},
      responseMs: 0.1,
    })
    for (let i = 0; i < 249; i++) redirect.record(click(i))
    await new Promise((r) => setImmediate(r))
    expect(clicks.recorder.pending).toBe(249)
    redirect.record(click(249))
    await new Promise((r) => setImmediate(r))
    expect(clicks.recorder.pending).toBe(0)
    await flush(t) // waits for the write under way (nothing is left to add)
    expect(await clickRows(t)).toHaveLength(250)
    expect((await analytics(t, link.id)).uniqueVisitors).toBe(250)
  })

  it('writes a lone click within half a second, leaving the rest of the crash bound for the write', async () => {
    t = await createTestApp()
    const link = await makeLink(t)
    const { recorder } = t.app.linkd.services.clicks
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    try {
      recorder.start()
      // Just after a timed flush: the worst moment to arrive.
      await vi.advanceTimersByTimeAsync(1)
      expect((await visit(t, link.shortCode)).statusCode).toBe(302)
      expect(recorder.pending).toBe(1)
      await vi.advanceTimersByTimeAsync(499)
      // The timed flush took it (no read, no shutdown asked for it) and commits it.
      expect(recorder.pending).toBe(0)
      await vi.waitFor(async () => expect(await clickRows(t)).toHaveLength(1))
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('graceful shutdown and the city database', () => {
  const dirs: string[] = []
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
  })
  const tempDir = () => {
    const d = mkdtempSync(join(tmpdir(), 'linkd-clicks-'))
    dirs.push(d)
    return d
  }

  it('buffered clicks survive app.close() (file-backed database, reopened)', async () => {
    const dir = tempDir()
    const own = onPostgres ? await createTestDatabase() : undefined
    const config = loadConfig({
      env: {},
      flags: { dataDir: dir, logLevel: 'silent', ...(own ? { databaseUrl: own.url } : {}) },
    })
    const clock = new FakeClock()
    const masterKey = randomBytes(32)
    let db = openDatabase(config.databaseUrl)
    await migrate(db, clock.now())
    const app = await buildApp({ config, db, clock, masterKey })
    const org = await app.linkd.services.orgs.create('default')
    const link = await app.linkd.services.links.create(org.id, { destinationUrl: 'https://example.com/' })
    for (const ip of ['8.8.8.8', '8.8.4.4']) {
      const res = await app.inject({
        method: 'GET',
        url: `/${link.shortCode}`,
        headers: { host: config.shortDomain, 'user-agent': CHROME_WINDOWS },
        remoteAddress: ip,
      })
      expect(res.statusCode).toBe(302)
    }
    expect(app.linkd.services.clicks.recorder.pending).toBe(2)
    await app.close()
    await db.close()

    db = openDatabase(config.databaseUrl)
    try {
      const stored = db.kysely
      expect(await stored.selectFrom('clicks').selectAll().execute()).toHaveLength(2)
      expect(
        await stored.selectFrom('links').select('clicks').where('id', '=', link.id).executeTakeFirst(),
      ).toEqual({ clicks: 2 })
      expect(
        await stored
          .selectFrom('link_day_totals')
          .select((eb) => eb.fn.sum<number>('visitors').as('v'))
          .executeTakeFirst(),
      ).toEqual({ v: 2 })
    } finally {
      await db.close()
      await own?.drop()
    }
  })

  it('region and city from a MaxMind-format city database when one is configured', async () => {
    const file = join(tempDir(), 'city.mmdb')
    writeFileSync(
      file,
      buildMmdb([
        {
          cidr: '8.8.8.0/24',
          record: {
            country: { iso_code: 'US' },
            subdivisions: [{ names: { en: 'California' } }],
            city: { names: { en: 'Mountain View' } },
          },
        },
        { cidr: '81.2.69.0/24', record: { country_code: 'GB', state1: 'England', city: 'London' } },
      ]),
    )
    const t = await createTestApp({ geoCityDb: file })
    try {
      const link = await makeLink(t)
      const events = captureEvents(t, 'link.clicked')
      await visit(t, link.shortCode, { ip: '8.8.8.8' })
      await visit(t, link.shortCode, { ip: '8.8.8.9' })
      await visit(t, link.shortCode, { ip: '81.2.69.160' })
      await visit(t, link.shortCode, { ip: '8.8.4.4' }) // not in the city database: country only
      const a = await analytics(t, link.id)
      expect(a.geography).toEqual([
        { country: 'US', region: 'California', clicks: 2, percentage: 50 },
        { country: 'GB', region: 'England', clicks: 1, percentage: 25 },
        { country: 'US', region: null, clicks: 1, percentage: 25 },
      ])
      expect(events[0]!.data).toMatchObject({
        countryCode: 'US',
        country: 'United States',
        city: 'Mountain View',
      })
      expect(events[2]!.data).toMatchObject({ countryCode: 'GB', city: 'London' })
      expect(events[3]!.data).not.toHaveProperty('city')
    } finally {
      await t.close()
    }
  })

  it('a city database that cannot be read stops start-up with its path', async () => {
    await expect(createTestApp({ geoCityDb: '/nonexistent/city.mmdb' })).rejects.toThrow(
      /\/nonexistent\/city\.mmdb/,
    )
  })
})
