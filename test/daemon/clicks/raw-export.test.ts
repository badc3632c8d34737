/**
 * The raw clicks export: every stored click of the organization or of one link, row for row as
 * stored, in NDJSON, CSV and Parquet (read back by DuckDB); no IP or visitor hash anywhere; the QR
 * code of a scan; another organization's link is a 404.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Link } from '../../../src/contract/links.js'
import { createTestApp, sqlRows, type TestApp } from '../../support/app.js'
import { duckPath, duckRows } from '../../support/duckdb.js'
import {
  CHROME_WINDOWS,
  DAY,
  GOOGLEBOT,
  SAFARI_IPHONE,
  flush,
  makeLink,
  visit,
} from '../../support/redirect.js'

let t: TestApp
let a: Link
let b: Link
let qrId: string
const dir = mkdtempSync(join(tmpdir(), 'raw-clicks-'))
const COLUMNS = [
  'clickId',
  'linkId',
  'ts',
  'country',
  'region',
  'device',
  'browser',
  'os',
  'referrer',
  'utmSource',
  'utmMedium',
  'utmCampaign',
  'bot',
  'qrCodeId',
  'variant',
]

beforeAll(async () => {
  t = await createTestApp()
  a = await makeLink(t, { customSlug: 'alpha', destinationUrl: 'https://example.com/a?utm_source=news' })
  b = await makeLink(t, {
    customSlug: 'beta',
    variants: [
      { destinationUrl: 'https://example.com/b1', weight: 50 },
      { destinationUrl: 'https://example.com/b2', weight: 50 },
    ],
  })
  const qr = await t.call('POST', '/api/use/qr-codes', { body: { linkId: a.id, title: 'Poster' } })
  qrId = qr.json<{ id: string }>().id
  const now = t.clock.now()
  // Yesterday and today; several clicks on one millisecond; a bot; QR scans of a code and of the link.
  for (const day of [1, 0]) {
    t.clock.set(now - day * DAY)
    for (let i = 0; i < 40; i++) {
      if (i % 4 !== 3) t.clock.advance(1000)
      const code = i % 3 ? 'alpha' : 'beta'
      const ua = i % 10 === 0 ? GOOGLEBOT : i % 2 ? SAFARI_IPHONE : CHROME_WINDOWS
      const query =
        i === 5 ? `qr=${qrId}` : i === 7 ? 'qr=1' : i === 9 ? 'utm_campaign=%3DSUM(A1)' : undefined
      const res = await visit(t, code, {
        ua,
        ip: `203.0.113.${i}`,
        ...(query ? { query } : {}),
        headers: { referer: 'https://news.example.org/post' },
      })
      expect(res.statusCode).toBe(302)
    }
    await flush(t)
  }
  t.clock.set(now)
}, 60_000)
afterAll(() => t.close())

type Row = Record<string, unknown>

/** The stored clicks as the export names them, in a stable order. */
async function stored(linkId?: string): Promise<Row[]> {
  const rows = await sqlRows<Row>(
    t,
    `SELECT * FROM clicks ${linkId ? 'WHERE link_id = ?' : ''} ORDER BY ts, link_id, is_bot, is_qr`,
    ...(linkId ? [linkId] : []),
  )
  return rows.map((r) => ({
    clickId: r.click_id,
    linkId: r.link_id,
    ts: new Date(Number(r.ts)).toISOString(),
    country: r.country,
    region: r.region,
    device: r.device,
    browser: r.browser,
    os: r.os,
    referrer: r.referrer_domain,
    utmSource: r.utm_source,
    utmMedium: r.utm_medium,
    utmCampaign: r.utm_campaign,
    bot: Number(r.is_bot) === 1,
    qrCodeId: Number(r.is_qr) === 1 ? (r.qr_code_id ?? `qr_${String(r.link_id).slice(4)}`) : null,
    variant: r.variant,
  }))
}
/** A total order of rows (rows of one millisecond come in no set order). */
const order = (rows: Row[]) => rows.map((r) => JSON.stringify(r)).sort()
const range = 'startDate=2026-11-20&endDate=2026-11-21'
const get = (query: string, key?: string) =>
  t.call('GET', `/api/use/analytics/clicks/export?${query}`, key ? { key } : {})

describe('raw clicks export', () => {
  it('NDJSON: every stored click of the organization, exactly as stored, no IP nor visitor hash', async () => {
    const res = await get(range)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['content-type']).toContain('application/x-ndjson')
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="clicks-2026-11-20-2026-11-21.ndjson"',
    )
    const rows = res.body
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Row)
    expect(rows).toHaveLength(80)
    expect(Object.keys(rows[0]!)).toEqual(COLUMNS)
    expect(order(rows)).toEqual(order(await stored()))
    expect(res.body).not.toMatch(/203\.0\.113|visitor/i)
    const hash = (await sqlRows<{ visitor_hash: string }>(t, 'SELECT visitor_hash FROM clicks'))[0]!
      .visitor_hash
    expect(res.body).not.toContain(hash)
    // What the rows say: bots flagged, the QR code of a scan (a code's, or the link's own).
    expect(rows.filter((r) => r.bot)).toHaveLength(8)
    expect(rows.filter((r) => r.qrCodeId === qrId)).toHaveLength(2)
    expect(rows.filter((r) => r.qrCodeId === `qr_${a.id.slice(4)}`)).toHaveLength(2)
    expect(rows.every((r) => r.referrer === 'news.example.org')).toBe(true)
    // The variant a human visit of the split link went to; none on the other link.
    const beta = rows.filter((r) => r.linkId === b.id && !r.bot)
    expect(beta.length).toBeGreaterThan(0)
    expect(
      beta.every((r) => r.variant === 'https://example.com/b1' || r.variant === 'https://example.com/b2'),
    ).toBe(true)
    expect(rows.filter((r) => r.linkId === a.id).every((r) => r.variant === null)).toBe(true)
  })

  it('one link (linkId), one day; another organization’s link is a 404', async () => {
    const rows = (await get(`linkId=${b.id}&startDate=2026-11-21&endDate=2026-11-21`)).body
      .trimEnd()
      .split('\n')
    expect(order(rows.map((l) => JSON.parse(l) as Row))).toEqual(
      order((await stored(b.id)).filter((r) => (r.ts as string).startsWith('2026-11-21'))),
    )
    const other = await t.createOrg('other')
    const res = await get(`linkId=${a.id}`, other.ownerKey)
    expect(res.statusCode).toBe(404)
    expect(res.json()).toMatchObject({ error: 'NotFound' })
    expect((await get('', other.ownerKey)).body).toBe('')
    expect((await get('format=json')).statusCode).toBe(400)
  })

  it('CSV: the header, booleans, formula-like text neutralised', async () => {
    const res = await get(`${range}&format=csv`)
    expect(res.headers['content-type']).toContain('text/csv')
    const lines = res.body.trimEnd().split('\r\n')
    expect(lines[0]).toBe(COLUMNS.join(','))
    expect(lines).toHaveLength(81)
    expect(lines.filter((l) => l.includes(`,'=SUM(A1),`))).toHaveLength(2)
    expect(lines.some((l) => /,=SUM/.test(l))).toBe(false)
    expect(lines.filter((l) => /,true,[^,]*,[^,]*$/.test(l))).toHaveLength(8)
  })

  it('Parquet: DuckDB reads every row with the stored values', async () => {
    const res = await get(`${range}&format=parquet`)
    expect(res.statusCode).toBe(200)
    const file = join(dir, 'clicks.parquet')
    writeFileSync(file, res.rawPayload)
    const [summary] = await duckRows(
      `SELECT count(*) AS n, count(*) FILTER (WHERE bot) AS bots, count(qrCodeId) AS scans FROM read_parquet(${duckPath(file)})`,
    )
    expect(summary).toEqual({ n: 80n, bots: 8n, scans: 4n })
    const rows = await duckRows(`SELECT * FROM read_parquet(${duckPath(file)})`)
    expect(order(rows.map((r) => ({ ...r, ts: (r.ts as Date).toISOString() })))).toEqual(
      order(await stored()),
    )
  })
})
