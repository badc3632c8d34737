import { afterEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../support/app.js'
import { detailFields, expectError } from '../../support/responses.js'
import { DAY, GOOGLEBOT, HOUR, analytics, makeLink, visit } from '../../support/redirect.js'

const iso = (ms: number) => new Date(ms).toISOString()
const q = (params: Record<string, string>) => new URLSearchParams(params).toString()

describe('GET /api/use/analytics/links/:id: access', () => {
  let t: TestApp
  afterEach(() => t.close())

  it('needs analytics:read; another organization’s link is 404', async () => {
    t = await createTestApp()
    const link = await makeLink(t)
    const url = `/api/use/analytics/links/${link.id}`
    expectError(await t.call('GET', url, { key: null }), 401, 'Unauthorized')
    const linksOnly = await t.createKey({ permissions: ['links:read'] })
    expectError(await t.call('GET', url, { key: linksOnly.key }), 403, 'Forbidden')
    const analyticsOnly = await t.createKey({ preset: 'analytics-only' })
    expect((await t.call('GET', url, { key: analyticsOnly.key })).statusCode).toBe(200)

    const other = await t.createOrg('other')
    expectError(await t.call('GET', url, { key: other.ownerKey }), 404, 'NotFound')
    expectError(await t.call('GET', '/api/use/analytics/links/lnk_missing'), 404, 'NotFound')
  })

  it('an empty link: zeros and empty lists, never NaN', async () => {
    t = await createTestApp()
    const link = await makeLink(t)
    const a = await analytics(t, link.id)
    expect(a).toMatchObject({
      linkId: link.id,
      interval: 'day',
      totalClicks: 0,
      uniqueVisitors: 0,
      qrScans: 0,
      botDetection: { count: 0, percentage: 0 },
      responseTime: 0,
      bounceRate: 0,
      geography: [],
      devices: [],
      browsers: [],
      os: [],
      referrers: [],
      utmSources: [],
      utmMediums: [],
      utmCampaigns: [],
    })
  })
})

describe('ranges and intervals', () => {
  let t: TestApp
  afterEach(() => t.close())

  it('defaults to the last 30 days up to now, by day, zero-filled', async () => {
    t = await createTestApp()
    const link = await makeLink(t)
    await visit(t, link.shortCode)
    const now = t.clock.now()
    const a = await analytics(t, link.id)
    expect(a.range).toEqual({ startDate: iso(now - 30 * DAY), endDate: iso(now) })
    expect(a.timeSeries).toHaveLength(31)
    expect(a.timeSeries[0]).toEqual({ timestamp: '2026-10-22T00:00:00.000Z', clicks: 0, bots: 0 })
    expect(a.timeSeries[30]).toEqual({ timestamp: '2026-11-21T00:00:00.000Z', clicks: 1, bots: 0 })
    expect(a.timeSeries.reduce((n, p) => n + p.clicks, 0)).toBe(a.totalClicks)
  })

  it('startDate after endDate is 400; equal dates are one instant', async () => {
    t = await createTestApp()
    const link = await makeLink(t)
    await visit(t, link.shortCode)
    const now = t.clock.now()
    const url = `/api/use/analytics/links/${link.id}`
    const bad = await t.call('GET', `${url}?${q({ startDate: iso(now + 1), endDate: iso(now) })}`)
    expectError(bad, 400, 'ValidationError')
    expect(detailFields(bad)).toEqual(['startDate'])
    const one = await analytics(t, link.id, q({ startDate: iso(now), endDate: iso(now), interval: 'hour' }))
    expect(one.timeSeries).toEqual([{ timestamp: iso(now), clicks: 1, bots: 0 }])
    expect(one.totalClicks).toBe(1)
    expectError(await t.call('GET', `${url}?startDate=yesterday`), 400, 'ValidationError')
    expectError(await t.call('GET', `${url}?interval=month`), 400, 'ValidationError')
  })

  it('at most 2,000 intervals: 2,000 hours pass, 2,001 fail', async () => {
    t = await createTestApp()
    const link = await makeLink(t)
    const start = Date.parse('2026-01-01T00:00:00.000Z')
    const url = `/api/use/analytics/links/${link.id}`
    const ok = await analytics(
      t,
      link.id,
      q({ startDate: iso(start), endDate: iso(start + 1999 * HOUR + HOUR - 1), interval: 'hour' }),
    )
    expect(ok.timeSeries).toHaveLength(2000)
    const over = await t.call(
      'GET',
      `${url}?${q({ startDate: iso(start), endDate: iso(start + 2000 * HOUR), interval: 'hour' })}`,
    )
    expectError(over, 400, 'ValidationError')
    expect(detailFields(over)).toEqual(['interval'])
    // The same range by day is fine.
    const byDay = await analytics(t, link.id, q({ startDate: iso(start), endDate: iso(start + 2000 * HOUR) }))
    expect(byDay.timeSeries).toHaveLength(84)
  })

  it('weeks start on Monday 00:00 UTC', async () => {
    t = await createTestApp() // 2026-11-21 is a Saturday
    const link = await makeLink(t)
    await visit(t, link.shortCode)
    t.clock.set('2026-11-23T00:00:00.000Z') // Monday
    await visit(t, link.shortCode, { ip: '10.0.0.9' })
    await visit(t, link.shortCode, { ua: GOOGLEBOT })
    const a = await analytics(
      t,
      link.id,
      q({ startDate: '2026-11-14T00:00:00.000Z', endDate: '2026-11-23T00:00:00.000Z', interval: 'week' }),
    )
    expect(a.timeSeries).toEqual([
      { timestamp: '2026-11-09T00:00:00.000Z', clicks: 0, bots: 0 },
      { timestamp: '2026-11-16T00:00:00.000Z', clicks: 1, bots: 0 },
      { timestamp: '2026-11-23T00:00:00.000Z', clicks: 1, bots: 1 },
    ])
  })

  it('totals count whole UTC hours: the hours holding startDate and endDate are included', async () => {
    t = await createTestApp()
    const link = await makeLink(t)
    t.clock.set('2026-11-21T10:00:00.000Z')
    await visit(t, link.shortCode)
    t.clock.set('2026-11-21T12:30:00.000Z')
    await visit(t, link.shortCode)
    const total = async (startDate: string, endDate: string) =>
      (await analytics(t, link.id, q({ startDate, endDate, interval: 'hour' }))).totalClicks
    expect(await total('2026-11-21T10:59:59.999Z', '2026-11-21T13:00:00.000Z')).toBe(2)
    expect(await total('2026-11-21T11:00:00.000Z', '2026-11-21T13:00:00.000Z')).toBe(1)
    expect(await total('2026-11-21T11:00:00.000Z', '2026-11-21T12:00:00.000Z')).toBe(1)
    expect(await total('2026-11-21T11:00:00.000Z', '2026-11-21T11:59:59.999Z')).toBe(0)
    const hours = await analytics(
      t,
      link.id,
      q({ startDate: '2026-11-21T09:15:00.000Z', endDate: '2026-11-21T12:45:00.000Z', interval: 'hour' }),
    )
    expect(hours.timeSeries.map((p) => [p.timestamp.slice(11, 16), p.clicks])).toEqual([
      ['09:00', 0],
      ['10:00', 1],
      ['11:00', 0],
      ['12:00', 1],
    ])
  })

  it('a date alone (ISO 8601) is a whole UTC day: startDate its start, endDate its end', async () => {
    t = await createTestApp()
    const link = await makeLink(t)
    t.clock.set('2026-11-20T23:30:00.000Z')
    await visit(t, link.shortCode)
    t.clock.set('2026-11-21T22:00:00.000Z')
    await visit(t, link.shortCode)
    const a = await analytics(t, link.id, q({ startDate: '2026-11-21', endDate: '2026-11-21' }))
    expect(a.range).toEqual({ startDate: '2026-11-21T00:00:00.000Z', endDate: '2026-11-21T23:59:59.999Z' })
    expect(a.totalClicks).toBe(1)
    expect((await analytics(t, link.id, q({ startDate: '2026-11-20' }))).totalClicks).toBe(2)
    const clicks = await t.call(
      'GET',
      `/api/use/analytics/clicks?${q({ startDate: '2026-11-20', endDate: '2026-11-21' })}`,
    )
    expect(clicks.statusCode, clicks.body).toBe(200)
    expect(clicks.json()).toMatchObject({ totalClicks: 2, range: { endDate: '2026-11-21T23:59:59.999Z' } })
    for (const startDate of ['2026-02-30', '2026-11-21T10:00', '21.11.2026']) {
      const bad = await t.call('GET', `/api/use/analytics/links/${link.id}?${q({ startDate })}`)
      expect(expectError(bad, 400, 'ValidationError').details, startDate).toEqual([
        {
          field: 'startDate',
          message: 'must be a date and time such as 2026-05-01T12:00:00Z or a date such as 2026-05-01',
        },
      ])
    }
  })

  it('dimension lists and visitors count whole UTC days', async () => {
    t = await createTestApp()
    const link = await makeLink(t)
    t.clock.set('2026-11-21T02:00:00.000Z')
    await visit(t, link.shortCode)
    const a = await analytics(
      t,
      link.id,
      q({ startDate: '2026-11-21T05:00:00.000Z', endDate: '2026-11-21T23:00:00.000Z' }),
    )
    expect(a.totalClicks).toBe(0)
    expect(a.devices).toEqual([{ device: 'desktop', clicks: 1, percentage: 100 }])
    expect(a.uniqueVisitors).toBe(1)
    const dayBefore = await analytics(
      t,
      link.id,
      q({ startDate: '2026-11-20T00:00:00.000Z', endDate: '2026-11-20T23:59:59.999Z' }),
    )
    expect(dayBefore.devices).toEqual([])
    expect(dayBefore.uniqueVisitors).toBe(0)
  })
})

describe('long ranges: whole months from the monthly rollup, partial months day by day', () => {
  let t: TestApp
  afterEach(() => t.close())

  it('counts each day once whatever the range’s month boundaries', async () => {
    t = await createTestApp()
    const link = await makeLink(t)
    const days = ['2026-09-15', '2026-10-01', '2026-10-31', '2026-11-01', '2026-11-21']
    for (const day of days) {
      t.clock.set(`${day}T08:00:00.000Z`)
      await visit(t, link.shortCode, { query: `utm_source=${day}` })
    }
    const sources = async (startDate: string, endDate: string) =>
      (await analytics(t, link.id, q({ startDate, endDate }))).utmSources.map((u) => u.value).sort()
    expect(await sources('2026-09-15T00:00:00.000Z', '2026-11-21T23:00:00.000Z')).toEqual(days)
    expect(await sources('2026-10-01T00:00:00.000Z', '2026-10-31T23:59:59.999Z')).toEqual([
      '2026-10-01',
      '2026-10-31',
    ])
    expect(await sources('2026-10-02T00:00:00.000Z', '2026-11-01T00:00:00.000Z')).toEqual([
      '2026-10-31',
      '2026-11-01',
    ])
    expect(await sources('2026-09-16T12:00:00.000Z', '2026-10-31T00:00:00.000Z')).toEqual([
      '2026-10-01',
      '2026-10-31',
    ])
    expect(await sources('2026-08-01T00:00:00.000Z', '2026-12-31T00:00:00.000Z')).toEqual(days)
  })
})

describe('definitions', () => {
  let t: TestApp
  afterEach(() => t.close())

  it('uniqueVisitors are summed per UTC day; bounceRate is the share of them with exactly one click', async () => {
    t = await createTestApp()
    const link = await makeLink(t)
    // Day 1: A clicks three times, B once. A bot never is a visitor.
    for (let i = 0; i < 3; i++) await visit(t, link.shortCode, { ip: '8.8.8.8' })
    await visit(t, link.shortCode, { ip: '8.8.4.4' })
    await visit(t, link.shortCode, { ip: '8.8.4.4', ua: GOOGLEBOT })
    let a = await analytics(t, link.id)
    expect(a.uniqueVisitors).toBe(2)
    expect(a.bounceRate).toBe(50)
    // B clicks again the same day: nobody bounced.
    await visit(t, link.shortCode, { ip: '8.8.4.4' })
    a = await analytics(t, link.id)
    expect(a.uniqueVisitors).toBe(2)
    expect(a.bounceRate).toBe(0)
    // Day 2: A once (a new visitor of that day, whose single click is a bounce).
    t.clock.advance(DAY)
    await visit(t, link.shortCode, { ip: '8.8.8.8' })
    a = await analytics(t, link.id)
    expect(a.totalClicks).toBe(6)
    expect(a.uniqueVisitors).toBe(3)
    expect(a.bounceRate).toBe(33.33)
    // The same visitor with another browser is another visitor.
    await visit(t, link.shortCode, {
      ip: '8.8.8.8',
      ua: 'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0',
    })
    a = await analytics(t, link.id)
    expect(a.uniqueVisitors).toBe(4)
    expect(a.bounceRate).toBe(50)
  })

  it('lists are sorted by clicks, the first 50, percentages with two decimals', async () => {
    t = await createTestApp()
    const link = await makeLink(t)
    for (let i = 0; i < 52; i++)
      await visit(t, link.shortCode, { query: `utm_campaign=c${String(i).padStart(2, '0')}` })
    await visit(t, link.shortCode, { query: 'utm_campaign=c51' })
    await visit(t, link.shortCode, { query: 'utm_campaign=c51' })
    await visit(t, link.shortCode, { query: 'utm_campaign=c07' })
    const a = await analytics(t, link.id)
    expect(a.totalClicks).toBe(55)
    expect(a.utmCampaigns).toHaveLength(50)
    expect(a.utmCampaigns.slice(0, 3)).toEqual([
      { value: 'c51', clicks: 3 },
      { value: 'c07', clicks: 2 },
      { value: 'c00', clicks: 1 },
    ])
    expect(a.devices).toEqual([{ device: 'desktop', clicks: 55, percentage: 100 }])
    expect(a.browsers).toEqual([{ browser: 'Chrome', clicks: 55, percentage: 100 }])
  })
})
