/**
 * The clicks module's storage port (ClickStore), its SQLite implementation (the click recorder's
 * writes on prepared statements) and the reads and purge both engines share (clickReads). The
 * PostgreSQL writes: postgres-store.ts; what a flush holds: batch.ts.
 */
import type SQLite from 'better-sqlite3'
import { sql, type Kysely } from 'kysely'
import type { Database } from '../../db/schema.js'
import { assertOpenOn, kyselyUnit, type UnitOfWork } from '../../db/unit-of-work.js'
import { DAY_MS, floorTo, utcMonthStart } from '../../clock.js'
import { addCountersSql } from '../../db/counters.js'
import { rawClickPages, type RawClickRow } from './raw-store.js'
import type { ArrayRows } from '../../db/array-rows.js'
import {
  monthRollup,
  variantVisitorDims,
  visitorTotals,
  type ClickBatch,
  type ClickRow,
  type DimDelta,
  type HourDelta,
} from './batch.js'

/** One hour of a link's counters, as read. */
export type HourRow = Omit<HourDelta, 'linkId'>
/** An organization's clicks of one UTC day, as read. */
export interface DayTotals {
  dayStart: number
  clicks: number
  bots: number
  qrScans: number
}
/** Human clicks of one dimension value, as read. */
export type DimRow = Pick<DimDelta, 'dim' | 'value' | 'clicks'>

/**
 * The storage port of the clicks module (clicks, link_click_hours, link_click_dims,
 * link_click_dims_month, link_day_visitors, link_day_totals). The service sees only this.
 */
export interface ClickStore {
  /**
   * Runs `fn` in one unit of work: everything written through `apply`, or by other stores given
   * the unit (links.clicks), or nothing.
   */
  transaction<T>(fn: (unit: UnitOfWork) => Promise<T>): Promise<T>
  /** Writes the rows and counters of one flush inside the open `transaction`. */
  apply(batch: ClickBatch, unit: UnitOfWork): Promise<void>
  /** Hourly counters of a link with hour_start in [from, to]. */
  hours(linkId: string, from: number, to: number): Promise<HourRow[]>
  /** An organization's clicks per UTC day with day_start in [from, to] (day order; days without clicks are left out). */
  organizationDays(organizationId: string, from: number, to: number): Promise<DayTotals[]>
  /** Human clicks per dimension value of a link over the days with day_start in [from, to]. */
  dims(linkId: string, from: number, to: number): Promise<DimRow[]>
  /** Visitors and single-click visitors of a link, summed over the days in [from, to]. */
  visitors(linkId: string, from: number, to: number): Promise<{ visitors: number; singleClick: number }>
  /** Link ids with click data after `after` (in id order; null: from the start), at most `limit`. */
  linkIdsWithClicks(after: string | null, limit: number): Promise<string[]>
  /** The variant of each of these clicks (by click id) that went to one; the others left out. */
  clickVariants(organizationId: string, clickIds: readonly string[]): Promise<Map<string, string>>
  /** The stored clicks of an organization with these click ids (`clk_…`): link and time. */
  clickRefs(organizationId: string, clickIds: readonly string[]): Promise<ClickRef[]>
  /** The raw clicks of an organization (or one of its links) with from ≤ ts < to, page by page. */
  rawPages(
    organizationId: string,
    linkId: string | undefined,
    from: number,
    to: number,
    pageSize?: number,
  ): AsyncGenerator<RawClickRow[]>
  /** Deletes the click data of one link, at most `budget` rows; returns the rows deleted. */
  purgeLink(linkId: string, budget: number, chunk?: number): Promise<number>
}

/** A smart-link click by its click id: which link, when (install attribution reads it). */
export interface ClickRef {
  clickId: string
  linkId: string
  ts: number
  /** The variant's URL the visit went to, or null. */
  variant: string | null
}

/** A click row's values in the column order of the SQLite INSERT below (flags as 0/1). */
function clickValues(r: ClickRow): unknown[] {
  return [
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
    r.clickId,
    r.variant,
    r.qrCodeId,
  ]
}

/** Click ids per statement of clickVariants (well under either engine's parameter limit). */
const CLICK_ID_CHUNK = 500

/**
 * Every table holding click data by link_id, with the columns that order its rows (its key after
 * link_id; raw clicks have no key, and ties on ts are a handful of rows at most). The hourly
 * counters come last: a purge finds deleted links by them, so an interrupted one is found again.
 */
const CLICK_TABLES = [
  ['clicks', ['ts']],
  ['link_click_dims', ['day_start', 'dim', 'value']],
  ['link_click_dims_month', ['month_start', 'dim', 'value']],
  ['link_day_visitors', ['day_start', 'visitor_hash']],
  ['link_day_totals', ['day_start']],
  ['link_click_hours', ['hour_start']],
] as const

/**
 * The SQLite implementation. Writes of the click recorder. The hot path: prepared better-sqlite3
 * statements (~8x Kysely's insert rate), inside the flush's transaction (`transaction`, on the
 * connection Kysely shares, so that the links service's update of links.clicks joins it). The
 * PostgreSQL implementation (postgres-store.ts) writes the same rows with multi-row statements.
 */
export function createClickStore(
  sqlite: SQLite.Database,
  db: Kysely<Database>,
  arrays: ArrayRows,
): ClickStore {
  // SQLite-specific (better-sqlite3): the hot path's prepared statements, used only by `apply`.
  const insertClick = sqlite.prepare(
    `INSERT INTO clicks (link_id, organization_id, ts, visitor_hash, is_bot, bot_reason, is_qr, country, region,
       city, device, browser, os, referrer_domain, utm_source, utm_medium, utm_campaign, response_ms,
       click_id, variant, qr_code_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  // Counters: each row's counts are added to the stored ones (daemon/db/counters.ts).
  const upsertHour = sqlite.prepare(
    addCountersSql(
      'link_click_hours',
      ['link_id', 'hour_start'],
      ['clicks', 'bots', 'qr_scans', 'response_ms_sum'],
    ),
  )
  const upsertOrgDay = sqlite.prepare(
    addCountersSql('org_click_days', ['organization_id', 'day_start'], ['clicks', 'bots', 'qr_scans']),
  )
  const upsertDim = sqlite.prepare(
    addCountersSql('link_click_dims', ['link_id', 'day_start', 'dim', 'value'], ['clicks']),
  )
  const upsertDimMonth = sqlite.prepare(
    addCountersSql('link_click_dims_month', ['link_id', 'month_start', 'dim', 'value'], ['clicks']),
  )
  // RETURNING: the visitor's clicks that day after this flush (1 = a new visitor).
  const upsertVisitor = sqlite.prepare(
    `${addCountersSql('link_day_visitors', ['link_id', 'day_start', 'visitor_hash'], ['clicks'])} RETURNING clicks`,
  )
  const upsertDayTotals = sqlite.prepare(
    addCountersSql('link_day_totals', ['link_id', 'day_start'], ['visitors', 'single_click_visitors']),
  )

  const apply = sqlite.transaction((batch: ClickBatch) => {
    for (const r of batch.rows) insertClick.run(...clickValues(r))
    for (const h of batch.hours)
      upsertHour.run(h.linkId, h.hourStart, h.clicks, h.bots, h.qrScans, h.responseMsSum)
    for (const o of batch.orgDays) upsertOrgDay.run(o.organizationId, o.dayStart, o.clicks, o.bots, o.qrScans)
    const after = batch.visitors.map((v) =>
      Number((upsertVisitor.get(v.linkId, v.dayStart, v.visitorHash, v.clicks) as { clicks: number }).clicks),
    )
    for (const t of visitorTotals(batch.visitors, after))
      upsertDayTotals.run(t.linkId, t.dayStart, t.visitors, t.singleClickVisitors)
    const dims = [...batch.dims, ...variantVisitorDims(batch.visitors, after)]
    for (const d of dims) upsertDim.run(d.linkId, d.dayStart, d.dim, d.value, d.clicks)
    for (const m of monthRollup(dims)) upsertDimMonth.run(m.linkId, m.monthStart, m.dim, m.value, m.clicks)
  })

  return {
    /**
     * One transaction for a whole flush: `fn` gets it as a unit of work for the Kysely work of
     * other modules (links.clicks); `apply` called within it joins it (better-sqlite3 and Kysely share
     * the one connection, so the prepared statements run inside the open transaction).
     */
    transaction<T>(fn: (unit: UnitOfWork) => Promise<T>): Promise<T> {
      return db.transaction().execute((trx) => fn(kyselyUnit(sqlite, trx)))
    },
    apply(batch: ClickBatch, unit: UnitOfWork): Promise<void> {
      assertOpenOn(unit, sqlite)
      apply(batch)
      return Promise.resolve()
    },

    ...clickReads(db, arrays),
  }
}

/**
 * The reads and the purge, the same on both engines (portable Kysely): the hourly counters, the
 * dimension and visitor totals of a range, and the deletion of a deleted link's click data.
 */
export function clickReads(
  db: Kysely<Database>,
  arrays: ArrayRows,
): Omit<ClickStore, 'transaction' | 'apply'> {
  return {
    rawPages: (organizationId, linkId, from, to, pageSize) =>
      rawClickPages(db, arrays, organizationId, linkId, from, to, pageSize),
    /** By the index clicks_org_click_id; a click id is unique (the first row if ever repeated). */
    async clickRefs(organizationId: string, clickIds: readonly string[]): Promise<ClickRef[]> {
      if (clickIds.length === 0) return []
      const rows = await db
        .selectFrom('clicks')
        .select(['click_id', 'link_id', 'ts', 'variant'])
        .where('organization_id', '=', organizationId)
        .where('click_id', 'in', [...clickIds])
        .orderBy('ts')
        .execute()
      const out = new Map<string, ClickRef>()
      for (const r of rows)
        if (r.click_id !== null && !out.has(r.click_id))
          out.set(r.click_id, {
            clickId: r.click_id,
            linkId: r.link_id,
            ts: Number(r.ts),
            variant: r.variant,
          })
      return [...out.values()]
    },
    /** By the index clicks_org_click_id, in chunks (an analytics read of a link's installs). */
    async clickVariants(organizationId: string, clickIds: readonly string[]): Promise<Map<string, string>> {
      const out = new Map<string, string>()
      for (let i = 0; i < clickIds.length; i += CLICK_ID_CHUNK) {
        const rows = await db
          .selectFrom('clicks')
          .select(['click_id', 'variant'])
          .where('organization_id', '=', organizationId)
          .where('click_id', 'in', clickIds.slice(i, i + CLICK_ID_CHUNK))
          .where('variant', 'is not', null)
          .execute()
        for (const r of rows) if (r.click_id !== null && r.variant !== null) out.set(r.click_id, r.variant)
      }
      return out
    },
    /** Hourly counters of a link with hour_start in [from, to]. */
    async hours(linkId: string, from: number, to: number): Promise<HourRow[]> {
      const rows = await db
        .selectFrom('link_click_hours')
        .select(['hour_start', 'clicks', 'bots', 'qr_scans', 'response_ms_sum'])
        .where('link_id', '=', linkId)
        .where('hour_start', '>=', from)
        .where('hour_start', '<=', to)
        .execute()
      return rows.map((r) => ({
        hourStart: Number(r.hour_start),
        clicks: Number(r.clicks),
        bots: Number(r.bots),
        qrScans: Number(r.qr_scans),
        responseMsSum: Number(r.response_ms_sum),
      }))
    },

    async organizationDays(organizationId: string, from: number, to: number): Promise<DayTotals[]> {
      const rows = await db
        .selectFrom('org_click_days')
        .select(['day_start', 'clicks', 'bots', 'qr_scans'])
        .where('organization_id', '=', organizationId)
        .where('day_start', '>=', from)
        .where('day_start', '<=', to)
        .orderBy('day_start')
        .execute()
      return rows.map((r) => ({
        dayStart: Number(r.day_start),
        clicks: Number(r.clicks),
        bots: Number(r.bots),
        qrScans: Number(r.qr_scans),
      }))
    },

    /**
     * Human clicks per dimension value of a link over the days with day_start in [from, to]: whole
     * calendar months from the monthly rollup, the partial months at either end day by day.
     */
    async dims(linkId: string, from: number, to: number): Promise<DimRow[]> {
      const daily = (a: number, b: number) =>
        db
          .selectFrom('link_click_dims')
          .select(['dim', 'value', (eb) => eb.fn.sum<number>('clicks').as('clicks')])
          .where('link_id', '=', linkId)
          .where('day_start', '>=', a)
          .where('day_start', '<=', b)
          .groupBy(['dim', 'value'])
          .execute()
      const monthly = (a: number, b: number) =>
        db
          .selectFrom('link_click_dims_month')
          .select(['dim', 'value', (eb) => eb.fn.sum<number>('clicks').as('clicks')])
          .where('link_id', '=', linkId)
          .where('month_start', '>=', a)
          .where('month_start', '<', b)
          .groupBy(['dim', 'value'])
          .execute()
      const firstDay = floorTo(from, DAY_MS)
      const lastDay = floorTo(to, DAY_MS)
      // Whole months inside the range: [fullFrom, fullTo).
      const fullFrom = utcMonthStart(firstDay) === firstDay ? firstDay : utcMonthStart(firstDay, 1)
      const fullTo = utcMonthStart(lastDay + DAY_MS)
      const parts =
        fullFrom >= fullTo
          ? [daily(firstDay, lastDay)]
          : [
              monthly(fullFrom, fullTo),
              ...(firstDay < fullFrom ? [daily(firstDay, fullFrom - DAY_MS)] : []),
              ...(fullTo <= lastDay ? [daily(fullTo, lastDay)] : []),
            ]
      const sums = new Map<string, DimRow>()
      for (const rows of await Promise.all(parts))
        for (const r of rows) {
          const k = `${r.dim}\n${r.value}`
          const s = sums.get(k)
          if (s) s.clicks += Number(r.clicks)
          else sums.set(k, { dim: r.dim, value: r.value, clicks: Number(r.clicks) })
        }
      return [...sums.values()]
    },

    /** Visitors and single-click visitors of a link, summed over the days in [from, to]. */
    async visitors(
      linkId: string,
      from: number,
      to: number,
    ): Promise<{ visitors: number; singleClick: number }> {
      const r = await db
        .selectFrom('link_day_totals')
        .select([
          (eb) => eb.fn.sum<number>('visitors').as('visitors'),
          (eb) => eb.fn.sum<number>('single_click_visitors').as('single'),
        ])
        .where('link_id', '=', linkId)
        .where('day_start', '>=', from)
        .where('day_start', '<=', to)
        .executeTakeFirst()
      return { visitors: Number(r?.visitors ?? 0), singleClick: Number(r?.single ?? 0) }
    },

    /** Link ids with click data after `after` (in id order), at most `limit` of them. */
    async linkIdsWithClicks(after: string | null, limit: number): Promise<string[]> {
      // Every recorded click, human or bot, has an hourly row: every link with data shows up there.
      let q = db.selectFrom('link_click_hours').select('link_id').distinct()
      if (after !== null) q = q.where('link_id', '>', after)
      const rows = await q.orderBy('link_id').limit(limit).execute()
      return rows.map((r) => r.link_id)
    },

    /**
     * Deletes the click data of one link, at most `budget` rows, in statements of at most `chunk`
     * rows (each its own short transaction, yielding in between, so redirects and their click
     * flushes are never held up). Returns the rows deleted; when that is `budget`, some may remain.
     */
    async purgeLink(linkId: string, budget: number, chunk = 10_000): Promise<number> {
      let deleted = 0
      for (const [table, columns] of CLICK_TABLES) {
        for (;;) {
          if (deleted >= budget) return deleted
          const limit = Math.min(chunk, budget - deleted)
          // The key of the chunk's last row; then every row up to it (a row-value comparison,
          // which SQLite and PostgreSQL both support).
          let page = db.selectFrom(table).select(columns).where('link_id', '=', linkId)
          for (const column of columns) page = page.orderBy(column)
          const last = (await page
            .offset(limit - 1)
            .limit(1)
            .executeTakeFirst()) as Record<string, string | number> | undefined
          let q = db.deleteFrom(table).where('link_id', '=', linkId)
          if (last)
            q = q.where(
              sql<boolean>`(${sql.join(columns.map((c) => sql.ref(c)))}) <= (${sql.join(columns.map((c) => last[c]))})`,
            )
          const r = await q.executeTakeFirst()
          deleted += Number(r.numDeletedRows)
          await new Promise((resolve) => setImmediate(resolve))
          if (!last) break
        }
      }
      return deleted
    },
  }
}
