import type SQLite from 'better-sqlite3'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.js'

/** One click row as stored (no raw IP). */
export interface ClickRow {
  linkId: string
  organizationId: string
  ts: number
  visitorHash: string
  isBot: boolean
  botReason: string | null
  isQr: boolean
  country: string | null
  region: string | null
  city: string | null
  device: string
  browser: string | null
  os: string | null
  referrerDomain: string | null
  utmSource: string | null
  utmMedium: string | null
  utmCampaign: string | null
  responseMs: number
}

export interface HourDelta {
  linkId: string
  hourStart: number
  clicks: number
  bots: number
  qrScans: number
  responseMsSum: number
}

export interface DimDelta {
  linkId: string
  dayStart: number
  dim: string
  value: string
  clicks: number
}

export interface VisitorDelta {
  linkId: string
  dayStart: number
  visitorHash: string
  clicks: number
}

/** One flush: raw rows plus the counter increments they imply. */
export interface ClickBatch {
  rows: ClickRow[]
  hours: HourDelta[]
  dims: DimDelta[]
  visitors: VisitorDelta[]
}

/** First day of the UTC month of a timestamp, 00:00 UTC. */
export function monthStartOf(ts: number): number {
  const d = new Date(ts)
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)
}

/**
 * Writes of the click recorder. The hot path: prepared better-sqlite3 statements (~8x Kysely's
 * insert rate, STACK.md), inside the flush's transaction (`transaction`, on the connection Kysely
 * shares, so that the links service's update of links.clicks joins it). Every statement is
 * portable SQL (ON CONFLICT … DO UPDATE, RETURNING), so a PostgreSQL store only swaps the driver
 * calls.
 */
export function createClickStore(sqlite: SQLite.Database, db: Kysely<Database>) {
  const insertClick = sqlite.prepare(
    `INSERT INTO clicks (link_id, organization_id, ts, visitor_hash, is_bot, bot_reason, is_qr, country, region,
       city, device, browser, os, referrer_domain, utm_source, utm_medium, utm_campaign, response_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const upsertHour = sqlite.prepare(
    `INSERT INTO link_click_hours (link_id, hour_start, clicks, bots, qr_scans, response_ms_sum)
     VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (link_id, hour_start) DO UPDATE SET
       clicks = link_click_hours.clicks + excluded.clicks,
       bots = link_click_hours.bots + excluded.bots,
       qr_scans = link_click_hours.qr_scans + excluded.qr_scans,
       response_ms_sum = link_click_hours.response_ms_sum + excluded.response_ms_sum`,
  )
  const upsertDim = sqlite.prepare(
    `INSERT INTO link_click_dims (link_id, day_start, dim, value, clicks) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (link_id, day_start, dim, value) DO UPDATE SET clicks = link_click_dims.clicks + excluded.clicks`,
  )
  const upsertDimMonth = sqlite.prepare(
    `INSERT INTO link_click_dims_month (link_id, month_start, dim, value, clicks) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (link_id, month_start, dim, value) DO UPDATE SET clicks = link_click_dims_month.clicks + excluded.clicks`,
  )
  const upsertVisitor = sqlite.prepare(
    `INSERT INTO link_day_visitors (link_id, day_start, visitor_hash, clicks) VALUES (?, ?, ?, ?)
     ON CONFLICT (link_id, day_start, visitor_hash) DO UPDATE SET clicks = link_day_visitors.clicks + excluded.clicks
     RETURNING clicks`,
  )
  const upsertDayTotals = sqlite.prepare(
    `INSERT INTO link_day_totals (link_id, day_start, visitors, single_click_visitors) VALUES (?, ?, ?, ?)
     ON CONFLICT (link_id, day_start) DO UPDATE SET
       visitors = link_day_totals.visitors + excluded.visitors,
       single_click_visitors = link_day_totals.single_click_visitors + excluded.single_click_visitors`,
  )

  const apply = sqlite.transaction((batch: ClickBatch) => {
    for (const r of batch.rows)
      insertClick.run(
        r.linkId,
        r.organizationId,
        r.ts,
        r.visitorHash,
        r.isBot ? 1 : 0,
        r.botReason,
        r.isQr ? 1 : 0,
        r.country,
        r.region,
        r.city,
        r.device,
        r.browser,
        r.os,
        r.referrerDomain,
        r.utmSource,
        r.utmMedium,
        r.utmCampaign,
        r.responseMs,
      )
    for (const h of batch.hours)
      upsertHour.run(h.linkId, h.hourStart, h.clicks, h.bots, h.qrScans, h.responseMsSum)
    const months = new Map<
      string,
      { linkId: string; monthStart: number; dim: string; value: string; clicks: number }
    >()
    for (const d of batch.dims) {
      upsertDim.run(d.linkId, d.dayStart, d.dim, d.value, d.clicks)
      const monthStart = monthStartOf(d.dayStart)
      const k = `${d.linkId}\n${monthStart}\n${d.dim}\n${d.value}`
      const m = months.get(k)
      if (m) m.clicks += d.clicks
      else months.set(k, { linkId: d.linkId, monthStart, dim: d.dim, value: d.value, clicks: d.clicks })
    }
    for (const m of months.values()) upsertDimMonth.run(m.linkId, m.monthStart, m.dim, m.value, m.clicks)

    // Daily visitor totals, maintained from what each upsert returns: a visitor is new to the day
    // when its count before this flush was 0, and leaves the single-click group when it was 1.
    const totals = new Map<string, { linkId: string; dayStart: number; visitors: number; single: number }>()
    for (const v of batch.visitors) {
      const after = Number(
        (upsertVisitor.get(v.linkId, v.dayStart, v.visitorHash, v.clicks) as { clicks: number }).clicks,
      )
      const before = after - v.clicks
      const key = `${v.linkId}\n${v.dayStart}`
      let t = totals.get(key)
      if (!t) totals.set(key, (t = { linkId: v.linkId, dayStart: v.dayStart, visitors: 0, single: 0 }))
      if (before === 0) t.visitors++
      t.single += (after === 1 ? 1 : 0) - (before === 1 ? 1 : 0)
    }
    for (const t of totals.values()) upsertDayTotals.run(t.linkId, t.dayStart, t.visitors, t.single)
  })

  return {
    /**
     * One transaction for a whole flush: `fn` gets the transaction for the Kysely work of other
     * modules (links.clicks); `apply` called within it joins it. All of it commits or nothing.
     */
    transaction<T>(fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
      return db.transaction().execute(fn)
    },
    /** Writes the rows and counters of one flush (in the open `transaction`, else its own). */
    apply(batch: ClickBatch): void {
      apply(batch)
    },
  }
}
export type ClickStore = ReturnType<typeof createClickStore>
