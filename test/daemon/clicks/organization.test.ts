/** GET /api/use/analytics/clicks: the organization's clicks per UTC day, over every link it has. */
import { sql } from 'kysely'
import { migrate, loadMigrations } from '../../../daemon/db/migrate.js'
import { openDatabase } from '../../../daemon/db/open.js'
import { afterEach, describe, expect, it } from 'vitest'
import type { Link } from '../../../src/contract/links.js'
import type { OrganizationClicks } from '../../../src/contract/click-analytics.js'
import { createTestApp, type TestApp } from '../../support/app.js'
import { detailFields, expectError } from '../../support/responses.js'
import { DAY, GOOGLEBOT, HOUR, makeLink, visit } from '../../support/redirect.js'

const iso = (ms: number) => new Date(ms).toISOString()
const URL = '/api/use/analytics/clicks'

async function clicks(t: TestApp, query: Record<string, string> = {}, key?: string) {
  const qs = new URLSearchParams(query).toString()
  const res = await t.call('GET', qs ? `${URL}?${qs}` : URL, key ? { key } : {})
  expect(res.statusCode, res.body).toBe(200)
  return res.json<OrganizationClicks>()
}

const today = (c: OrganizationClicks) => c.days.at(-1)

describe('GET /api/use/analytics/clicks', () => {
  let t: TestApp
  afterEach(() => t.close())

  it('needs analytics:read', async () => {
    t = await createTestApp()
    expectError(await t.call('GET', URL, { key: null }), 401, 'Unauthorized')
    const linksOnly = await t.createKey({ permissions: ['links:read'] })
    expectError(await t.call('GET', URL, { key: linksOnly.key }), 403, 'Forbidden')
    const analyticsOnly = await t.createKey({ preset: 'analytics-only' })
    expect((await t.call('GET', URL, { key: analyticsOnly.key })).statusCode).toBe(200)
  })

  it('sums every link of the organization per UTC day: humans, bots apart, QR scans', async () => {
    t = await createTestApp() // 2026-11-21T10:00Z
    const [a, b] = [await makeLink(t), await makeLink(t)]
    await visit(t, a.shortCode)
    await visit(t, a.shortCode, { ip: '10.0.0.2', query: 'qr=1' })
    await visit(t, b.shortCode, { ua: GOOGLEBOT })
    t.clock.advance(-DAY) // yesterday
    await visit(t, b.shortCode)
    t.clock.advance(DAY)

    const c = await clicks(t, { startDate: '2026-11-19T00:00:00.000Z' })
    expect(c.range).toEqual({ startDate: '2026-11-19T00:00:00.000Z', endDate: iso(t.clock.now()) })
    expect(c.days).toEqual([
      { date: '2026-11-19', clicks: 0, bots: 0, qrScans: 0 },
      { date: '2026-11-20', clicks: 1, bots: 0, qrScans: 0 },
      { date: '2026-11-21', clicks: 2, bots: 1, qrScans: 1 },
    ])
    expect(c).toMatchObject({ totalClicks: 3, bots: 1, qrScans: 1 })
  })

  it('never counts another organization’s clicks; a deleted link’s clicks still count for their day', async () => {
    t = await createTestApp()
    const other = await t.createOrg('other')
    const ours = await makeLink(t)
    const theirs = await makeLink(t, {}, other.ownerKey)
    for (let i = 0; i < 3; i++) await visit(t, ours.shortCode, { ip: `10.0.1.${i}` })
    for (let i = 0; i < 5; i++) await visit(t, theirs.shortCode, { ip: `10.0.2.${i}` })

    expect(today(await clicks(t))?.clicks).toBe(3)
    expect((await clicks(t, {}, other.ownerKey)).totalClicks).toBe(5)
    const fresh = await t.createOrg('fresh')
    expect((await clicks(t, {}, fresh.ownerKey)).totalClicks).toBe(0)

    const gone = await makeLink(t)
    await visit(t, gone.shortCode, { ip: '10.0.3.1' })
    expect((await clicks(t)).totalClicks).toBe(4)
    expect((await t.call('DELETE', `/api/use/links/${gone.id}`)).statusCode).toBe(204)
    expect((await clicks(t)).totalClicks).toBe(4)
    // Nor does the purge of the deleted link's own counters take them away.
    await t.app.linkd.services.clicks.purgeDeletedLinks(1_000_000)
    expect((await clicks(t)).totalClicks).toBe(4)
  })

  it('counts every link of an organization with thousands of them, in one row a day', async () => {
    t = await createTestApp()
    for (let round = 0; round < 3; round++) {
      const body = { links: Array.from({ length: 500 }, () => ({ destinationUrl: 'https://example.com/x' })) }
      const res = await t.call('POST', '/api/use/links/bulk', { body })
      expect(res.statusCode).toBe(200)
      const links = res.json<{ results: { link?: Link }[] }>().results.map((r) => r.link!)
      for (const [i, link] of links.entries())
        if (i % 50 === round) await visit(t, link.shortCode, { ip: `10.1.${round}.${i & 255}` })
    }
    expect((await clicks(t, { startDate: iso(t.clock.now()) })).totalClicks).toBe(30)
  })

  it('defaults to the last 30 days up to now; whole UTC days at both ends', async () => {
    t = await createTestApp()
    const link = await makeLink(t)
    t.clock.set('2026-11-20T23:59:59.999Z')
    await visit(t, link.shortCode, { ip: '10.0.0.1' })
    t.clock.set('2026-11-21T00:00:00.000Z')
    await visit(t, link.shortCode, { ip: '10.0.0.2' })
    t.clock.set('2026-11-21T23:59:00.000Z')
    await visit(t, link.shortCode, { ip: '10.0.0.3' })
    t.clock.set('2026-11-21T10:00:00.000Z')

    const all = await clicks(t)
    expect(all.range).toEqual({ startDate: iso(t.clock.now() - 30 * DAY), endDate: iso(t.clock.now()) })
    expect(all.days).toHaveLength(31)
    expect(all.days[0]?.date).toBe('2026-10-22')
    expect(all.totalClicks).toBe(3)
    // A range inside one day counts that whole day, before and after the range's instants.
    const day = await clicks(t, {
      startDate: '2026-11-21T12:00:00.000Z',
      endDate: '2026-11-21T12:00:00.000Z',
    })
    expect(day.days).toEqual([{ date: '2026-11-21', clicks: 2, bots: 0, qrScans: 0 }])
  })

  it('at most 2,000 days: 2,000 pass, 2,001 fail; startDate after endDate fails', async () => {
    t = await createTestApp()
    const start = Date.parse('2020-01-01T00:00:00.000Z')
    const ok = await clicks(t, { startDate: iso(start), endDate: iso(start + 1999 * DAY + DAY - 1) })
    expect(ok.days).toHaveLength(2000)
    const over = await t.call('GET', `${URL}?startDate=${iso(start)}&endDate=${iso(start + 2000 * DAY)}`)
    expectError(over, 400, 'ValidationError')
    expect(detailFields(over)).toEqual(['startDate'])
    const backwards = await t.call('GET', `${URL}?startDate=${iso(start + HOUR)}&endDate=${iso(start)}`)
    expectError(backwards, 400, 'ValidationError')
    expect(detailFields(backwards)).toEqual(['startDate'])
    expectError(await t.call('GET', `${URL}?startDate=yesterday`), 400, 'ValidationError')
    expectError(await t.call('GET', `${URL}?interval=day`), 400, 'ValidationError')
  })
})

describe('migration 0016 (org_click_days)', () => {
  it('carries the days recorded before it: each organization’s hourly counters summed per UTC day', async () => {
    const db = openDatabase('sqlite::memory:')
    try {
      await migrate(
        db,
        0,
        loadMigrations().filter((m) => m.version < 16),
      )
      await sql`INSERT INTO organizations (id, name, plan, created_at, updated_at)
        VALUES ('org_a', 'a', 'free', 0, 0), ('org_b', 'b', 'free', 0, 0)`.execute(db.kysely)
      const link = (id: string, org: string) =>
        sql`INSERT INTO links (id, organization_id, short_code, domain_key, destination_url, status,
          redirect_type, tags, metadata, clicks, created_at, updated_at) VALUES (${id}, ${org}, ${id}, '',
          'https://example.com/', 'active', 302, '[]', '{}', 0, 0, 0)`.execute(db.kysely)
      await link('l1', 'org_a')
      await link('l2', 'org_a')
      await link('l3', 'org_b')
      const day = Date.UTC(2026, 10, 20)
      await sql`INSERT INTO link_click_hours (link_id, hour_start, clicks, bots, qr_scans, response_ms_sum) VALUES
        ('l1', ${day}, 2, 1, 1, 0), ('l1', ${day + 23 * HOUR}, 3, 0, 0, 0), ('l2', ${day + 5 * HOUR}, 4, 2, 0, 0),
        ('l1', ${day + DAY}, 1, 0, 0, 0), ('l3', ${day}, 7, 0, 0, 0)`.execute(db.kysely)
      expect(await migrate(db, 0)).toContain('0016_org_click_days')
      const rows = await db.kysely
        .selectFrom('org_click_days')
        .selectAll()
        .orderBy('organization_id')
        .orderBy('day_start')
        .execute()
      expect(rows.map((r) => ({ ...r, day_start: Number(r.day_start) }))).toEqual([
        { organization_id: 'org_a', day_start: day, clicks: 9, bots: 3, qr_scans: 1 },
        { organization_id: 'org_a', day_start: day + DAY, clicks: 1, bots: 0, qr_scans: 0 },
        { organization_id: 'org_b', day_start: day, clicks: 7, bots: 0, qr_scans: 0 },
      ])
    } finally {
      await db.close()
    }
  })
})
