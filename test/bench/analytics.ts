import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type SQLite from 'better-sqlite3'
import { buildApp } from '../../daemon/app.js'
import { loadConfig } from '../../daemon/config.js'
import { migrate } from '../../daemon/db/migrate.js'
import { openDatabase } from '../../daemon/db/open.js'
import { prng } from '../support/prng.js'
import { fmt, median, percentile, report } from './lib.js'

const HOUR = 3_600_000
const DAY = 86_400_000
const DAYS = 365

const names = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`)
const COUNTRIES = Array.from({ length: 60 }, (_, i) =>
  String.fromCharCode(65 + (i % 26), 65 + Math.floor(i / 26)),
)
const VALUES = {
  device: ['desktop', 'mobile', 'tablet'],
  browser: names('Browser ', 12),
  os: names('OS ', 8),
  referrer: names('site', 100).map((s) => `${s}.example`),
  utm_source: names('source', 20),
  utm_medium: names('medium', 8),
  utm_campaign: names('campaign', 50),
}

/**
 * Loads `total` clicks of one link spread over the last 365 days straight into a database file:
 * raw rows plus every aggregate the recorder maintains (hours, per-day dimensions, visitors and
 * their daily totals), with prepared statements in large transactions.
 */
function fill(
  sqlite: SQLite.Database,
  link: { id: string; organizationId: string },
  total: number,
  now: number,
) {
  const rand = prng(42)
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(xs.length * rand() ** 2)]!
  const visitorPool = Array.from({ length: 30_000 }, () => randomBytes(32).toString('hex'))
  const insClick = sqlite.prepare(
    `INSERT INTO clicks (link_id, organization_id, ts, visitor_hash, is_bot, bot_reason, is_qr, country, region, city,
       device, browser, os, referrer_domain, utm_source, utm_medium, utm_campaign, response_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const insHour = sqlite.prepare(
    'INSERT INTO link_click_hours (link_id, hour_start, clicks, bots, qr_scans, response_ms_sum) VALUES (?, ?, ?, ?, ?, ?)',
  )
  const insDim = sqlite.prepare(
    'INSERT INTO link_click_dims (link_id, day_start, dim, value, clicks) VALUES (?, ?, ?, ?, ?)',
  )
  const insDimMonth = sqlite.prepare(
    'INSERT INTO link_click_dims_month (link_id, month_start, dim, value, clicks) VALUES (?, ?, ?, ?, ?)',
  )
  const months = new Map<string, number>()
  const insVisitor = sqlite.prepare(
    'INSERT INTO link_day_visitors (link_id, day_start, visitor_hash, clicks) VALUES (?, ?, ?, ?)',
  )
  const insTotals = sqlite.prepare(
    'INSERT INTO link_day_totals (link_id, day_start, visitors, single_click_visitors) VALUES (?, ?, ?, ?)',
  )
  const firstDay = Math.floor(now / DAY) * DAY - (DAYS - 1) * DAY
  const perDay = Math.ceil(total / DAYS)
  let written = 0

  const day = sqlite.transaction((dayStart: number, n: number) => {
    const hours = new Map<number, { clicks: number; bots: number; qr: number; rt: number }>()
    const dims = new Map<string, number>()
    const visitors = new Map<string, number>()
    const count = (dim: string, value: string) => {
      const k = `${dim}\n${value}`
      dims.set(k, (dims.get(k) ?? 0) + 1)
    }
    for (let i = 0; i < n; i++) {
      const ts = dayStart + Math.floor((i / n) * DAY)
      const bot = rand() < 0.05
      const qr = !bot && rand() < 0.1
      const country = pick(COUNTRIES)
      const region = `Region ${Math.floor(rand() * 4)}`
      const row = {
        visitor: pick(visitorPool),
        device: pick(VALUES.device),
        browser: pick(VALUES.browser),
        os: pick(VALUES.os),
        referrer: rand() < 0.6 ? pick(VALUES.referrer) : null,
        source: rand() < 0.3 ? pick(VALUES.utm_source) : null,
        medium: rand() < 0.3 ? pick(VALUES.utm_medium) : null,
        campaign: rand() < 0.3 ? pick(VALUES.utm_campaign) : null,
      }
      const rt = 0.2 + rand()
      // prettier-ignore
      insClick.run(link.id, link.organizationId, ts, row.visitor, bot ? 1 : 0, bot ? 'user-agent' : null,
        qr ? 1 : 0, country, region, row.device, row.browser, row.os, row.referrer, row.source, row.medium,
        row.campaign, rt)
      const hourStart = Math.floor(ts / HOUR) * HOUR
      let h = hours.get(hourStart)
      if (!h) hours.set(hourStart, (h = { clicks: 0, bots: 0, qr: 0, rt: 0 }))
      h.rt += rt
      if (bot) {
        h.bots++
        continue
      }
      h.clicks++
      if (qr) h.qr++
      count('country', country)
      count('region', `${country}/${region}`)
      count('device', row.device)
      count('browser', row.browser)
      count('os', row.os)
      if (row.referrer) count('referrer', row.referrer)
      if (row.source) count('utm_source', row.source)
      if (row.medium) count('utm_medium', row.medium)
      if (row.campaign) count('utm_campaign', row.campaign)
      visitors.set(row.visitor, (visitors.get(row.visitor) ?? 0) + 1)
    }
    for (const [hourStart, h] of hours) insHour.run(link.id, hourStart, h.clicks, h.bots, h.qr, h.rt)
    for (const [k, clicks] of dims) {
      const [dim, value] = k.split('\n') as [string, string]
      insDim.run(link.id, dayStart, dim, value, clicks)
      const d = new Date(dayStart)
      const mk = `${Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)}\n${k}`
      months.set(mk, (months.get(mk) ?? 0) + clicks)
    }
    let single = 0
    for (const [hash, clicks] of visitors) {
      insVisitor.run(link.id, dayStart, hash, clicks)
      if (clicks === 1) single++
    }
    insTotals.run(link.id, dayStart, visitors.size, single)
  })

  for (let d = 0; d < DAYS && written < total; d++) {
    const n = Math.min(perDay, total - written)
    day(firstDay + d * DAY, n)
    written += n
  }
  sqlite.transaction(() => {
    for (const [k, clicks] of months) {
      const [monthStart, dim, value] = k.split('\n') as [string, string, string]
      insDimMonth.run(link.id, Number(monthStart), dim, value, clicks)
    }
  })()
  return written
}

/**
 * Link analytics latency with `total` clicks loaded (default 10M, all on the measured link, the
 * worst case for it): median and p99 of 50 calls of GET /api/use/analytics/links/:id per range,
 * through the whole app (auth, validation, flush, serialization) via inject.
 */
export async function analyticsBench(total = Number(process.env.BENCH_CLICKS ?? 10_000_000)): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'linkd-bench-analytics-'))
  try {
    const config = loadConfig({ env: {}, flags: { dataDir: dir, logLevel: 'silent', jobs: false } })
    const db = openDatabase(config.databaseUrl)
    await migrate(db, Date.now())
    const app = await buildApp({ config, db, masterKey: randomBytes(32) })
    try {
      const { orgs, keys, links } = app.linkd.services
      const org = await orgs.create('bench')
      const key = (await keys.createOwnerKey(org.id)).key
      const link = await links.create(org.id, { destinationUrl: 'https://example.com/' })
      const now = Date.now()
      const t0 = performance.now()
      const loaded = fill(db.sqlite, { id: link.id, organizationId: org.id }, total, now)
      const loadMs = performance.now() - t0
      db.sqlite.pragma('wal_checkpoint(TRUNCATE)')
      const sizeMb = statSync(join(dir, 'linkd.db')).size / 1024 / 1024

      const time = async (query: string) => {
        const call = async () => {
          const s = performance.now()
          const res = await app.inject({
            method: 'GET',
            url: `/api/use/analytics/links/${link.id}?${query}`,
            headers: { authorization: `Bearer ${key}` },
          })
          if (res.statusCode !== 200) throw new Error(`analytics: ${res.statusCode} ${res.body}`)
          return { ms: performance.now() - s, body: res.json<{ totalClicks: number }>() }
        }
        for (let i = 0; i < 5; i++) await call()
        const times: number[] = []
        let clicks = 0
        for (let i = 0; i < 50; i++) {
          const r = await call()
          times.push(r.ms)
          clicks = r.body.totalClicks
        }
        return { p50: median(times), p99: percentile(times, 99), clicks }
      }
      const iso = (ms: number) => new Date(ms).toISOString()
      const ranges: Array<[string, string]> = [
        ['last 30 days by day (default)', ''],
        ['last 7 days by hour', `startDate=${iso(now - 7 * DAY)}&endDate=${iso(now)}&interval=hour`],
        [
          'last 80 days by hour (1,920 points)',
          `startDate=${iso(now - 80 * DAY)}&endDate=${iso(now)}&interval=hour`,
        ],
        ['last 365 days by week', `startDate=${iso(now - 365 * DAY)}&endDate=${iso(now)}&interval=week`],
      ]
      const rows: Array<[string, string]> = [
        [
          `load ${fmt(loaded / 1e6, 1)}M clicks (raw + aggregates)`,
          `${fmt(loadMs / 1000, 1)} s (${fmt(loaded / (loadMs / 1000) / 1000, 0)}k clicks/s), database ${fmt(sizeMb, 0)} MB`,
        ],
      ]
      for (const [name, query] of ranges) {
        const r = await time(query)
        rows.push([
          name,
          `median ${fmt(r.p50)} ms, p99 ${fmt(r.p99)} ms (target <= 50 ms); totalClicks ${r.clicks}`,
        ])
      }
      report(
        `link analytics latency, ${fmt(loaded / 1e6, 1)}M clicks on one link over ${DAYS} days (50 calls each)`,
        rows,
      )
    } finally {
      await app.close()
      await db.close()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
