import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { buildMmdb } from '../../support/mmdb.js'
import { createTestApp, type TestApp } from '../../support/app.js'
import { prng } from '../../support/prng.js'
import { onPostgres } from '../../support/postgres.js'
import {
  CHROME_WINDOWS,
  FIREFOX_LINUX,
  GOOGLEBOT,
  HOUR,
  SAFARI_IPAD,
  SAFARI_IPHONE,
  SLACKBOT,
  flush,
  makeLink,
  visit,
} from '../../support/redirect.js'

const DIM_VALUES: Array<[dim: string, value: string, where: string]> = [
  ['country', "COALESCE(country, '')", '1 = 1'],
  ['region', "country || '/' || region", "country <> '' AND region <> ''"],
  ['device', 'device', 'device IS NOT NULL'],
  ['browser', "COALESCE(browser, '')", '1 = 1'],
  ['os', "COALESCE(os, '')", '1 = 1'],
  ['referrer', 'referrer_domain', 'referrer_domain IS NOT NULL'],
  ['utm_source', 'utm_source', 'utm_source IS NOT NULL'],
  ['utm_medium', 'utm_medium', 'utm_medium IS NOT NULL'],
  ['utm_campaign', 'utm_campaign', 'utm_campaign IS NOT NULL'],
]
const DAY_START = '(ts / 86400000) * 86400000'
// The one expression without a portable form: the UTC month a Unix-ms timestamp falls in.
const MONTH_START = onPostgres
  ? "CAST(EXTRACT(EPOCH FROM date_trunc('month', to_timestamp(ts / 1000.0) AT TIME ZONE 'UTC')) AS BIGINT) * 1000"
  : "CAST(strftime('%s', ts / 1000, 'unixepoch', 'start of month') AS INTEGER) * 1000"
const countIf = (condition: string) => `SUM(CASE WHEN ${condition} THEN 1 ELSE 0 END)`
const dimsBy = (bucket: string) =>
  DIM_VALUES.map(
    ([dim, value, where]) =>
      `SELECT link_id, ${bucket} AS bucket, '${dim}' AS dim, ${value} AS value, COUNT(*) AS clicks
       FROM clicks WHERE is_bot = 0 AND ${where} GROUP BY 1, 2, 4`,
  ).join(' UNION ALL ')
const dailyVisitors = `SELECT link_id, ${DAY_START} AS day_start, visitor_hash, COUNT(*) AS clicks
  FROM clicks WHERE is_bot = 0 GROUP BY 1, 2, 3`

/** Every counter table next to what the click rows say it must hold, both in the same order. */
const COUNTERS: Array<[table: string, stored: string, fromRows: string]> = [
  [
    'link_click_hours',
    'SELECT link_id, hour_start, clicks, bots, qr_scans, round(CAST(response_ms_sum AS NUMERIC), 6) AS ms FROM link_click_hours',
    `SELECT link_id, (ts / 3600000) * 3600000 AS hour_start, ${countIf('is_bot = 0')} AS clicks, SUM(is_bot) AS bots,
       ${countIf('is_qr = 1 AND is_bot = 0')} AS qr_scans, round(CAST(SUM(response_ms) AS NUMERIC), 6) AS ms
     FROM clicks GROUP BY 1, 2`,
  ],
  [
    'link_click_dims',
    'SELECT link_id, day_start AS bucket, dim, value, clicks FROM link_click_dims',
    dimsBy(DAY_START),
  ],
  [
    'link_click_dims_month',
    'SELECT link_id, month_start AS bucket, dim, value, clicks FROM link_click_dims_month',
    dimsBy(MONTH_START),
  ],
  [
    'link_day_visitors',
    'SELECT link_id, day_start, visitor_hash, clicks FROM link_day_visitors',
    dailyVisitors,
  ],
  [
    'link_day_totals',
    'SELECT link_id, day_start, visitors, single_click_visitors FROM link_day_totals',
    `SELECT link_id, day_start, COUNT(*) AS visitors, ${countIf('clicks = 1')} AS single_click_visitors
     FROM (${dailyVisitors}) AS daily GROUP BY 1, 2`,
  ],
]

describe('click counters', () => {
  let t: TestApp
  const dir = mkdtempSync(join(tmpdir(), 'linkd-counters-'))
  afterEach(async () => {
    await t.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('every counter table equals what the click rows add up to, across flushes, hours, days and a month', async () => {
    // A city database for two of the addresses, so that regions are counted too.
    const cityDb = join(dir, 'city.mmdb')
    writeFileSync(
      cityDb,
      buildMmdb([
        { cidr: '81.2.69.0/24', record: { country_code: 'GB', state1: 'England', city: 'London' } },
        {
          cidr: '8.8.8.0/24',
          record: { country: { iso_code: 'US' }, subdivisions: [{ names: { en: 'California' } }] },
        },
      ]),
    )
    t = await createTestApp({ geoCityDb: cityDb })
    t.clock.set('2026-11-30T21:10:00.000Z')
    const links = [
      await makeLink(t),
      await makeLink(t, { destinationUrl: 'https://example.com/?utm_source=news&utm_medium=mail' }),
      await makeLink(t),
    ]
    const agents = [CHROME_WINDOWS, SAFARI_IPHONE, SAFARI_IPAD, FIREFOX_LINUX, GOOGLEBOT, SLACKBOT, '']
    const ips = ['8.8.8.8', '8.8.4.4', '203.0.113.7', '::ffff:1.1.1.1', '10.0.0.3', '81.2.69.160']
    const queries = [undefined, 'qr=1', 'utm_source=x', 'utm_campaign=spring&utm_medium=ads']
    const referers = [undefined, 'https://www.google.com/search', 'https://t.co/a']
    const random = prng(11)
    const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)]!
    let sent = 0
    // 700 clicks over ~5 hours either side of midnight at a month's end; flushes at random points
    // (and every 250 buffered clicks), so counters of one hour/day/visitor build up over flushes.
    for (let i = 0; i < 700; i++) {
      const referer = pick(referers)
      const res = await visit(t, pick(links).shortCode, {
        ua: pick(agents),
        ip: pick(ips),
        ...(random() < 0.1 ? { method: 'HEAD' as const } : {}),
        query: pick(queries),
        ...(referer ? { headers: { referer } } : {}),
      })
      expect(res.statusCode).toBe(302)
      sent++
      t.clock.advance(Math.floor(random() * (HOUR / 50)))
      if (random() < 0.02) await flush(t)
    }
    await flush(t)

    const all = async (q: string) => (await sql.raw<Record<string, unknown>>(q).execute(t.db.kysely)).rows
    const count = async (q: string) => Number((await all(q))[0]?.n)
    expect(await count('SELECT COUNT(*) AS n FROM clicks')).toBe(sent)
    expect(await count(`SELECT COUNT(DISTINCT ${MONTH_START}) AS n FROM clicks`)).toBe(2)
    expect(await count(`SELECT COUNT(DISTINCT ${DAY_START}) AS n FROM clicks`)).toBe(2)
    const ordered = (q: string) => all(`${q} ORDER BY 1, 2, 3, 4`)
    for (const [table, stored, fromRows] of COUNTERS) {
      const expected = await ordered(fromRows)
      expect(expected.length, table).toBeGreaterThan(0)
      if (table === 'link_click_dims')
        expect(new Set(expected.map((r) => (r as { dim: string }).dim)).size).toBe(DIM_VALUES.length)
      expect(await ordered(stored), table).toEqual(expected)
    }
    for (const link of links) {
      const res = await t.call('GET', `/api/use/links/${link.id}`)
      const humans = await count(
        `SELECT COUNT(*) AS n FROM clicks WHERE is_bot = 0 AND link_id = '${link.id}'`,
      )
      expect(humans).toBeGreaterThan(0)
      expect(res.json<{ clicks: number }>().clicks).toBe(humans)
    }
  })
})
