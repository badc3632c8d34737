import { sql, type Kysely } from 'kysely'
import type { Database } from '../../db/schema.js'

const DAY = 86_400_000

/** First day of the UTC month of a timestamp, 00:00 UTC (as the recorder's monthly rollup). */
function monthStartOf(ts: number): number {
  const d = new Date(ts)
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)
}
const nextMonth = (ts: number) => {
  const d = new Date(ts)
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)
}

export interface HourRow {
  hourStart: number
  clicks: number
  bots: number
  qrScans: number
  responseMsSum: number
}

export interface DimRow {
  dim: string
  value: string
  clicks: number
}

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

/** Reads of link analytics: the pre-aggregated counters only, never raw clicks. */
export function createAnalyticsStore(db: Kysely<Database>) {
  return {
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
      const firstDay = from - (((from % DAY) + DAY) % DAY)
      const lastDay = to - (((to % DAY) + DAY) % DAY)
      // Whole months inside the range: [fullFrom, fullTo).
      const fullFrom = monthStartOf(firstDay) === firstDay ? firstDay : nextMonth(firstDay)
      const fullTo = monthStartOf(lastDay + DAY)
      const parts =
        fullFrom >= fullTo
          ? [daily(firstDay, lastDay)]
          : [
              monthly(fullFrom, fullTo),
              ...(firstDay < fullFrom ? [daily(firstDay, fullFrom - DAY)] : []),
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

    /**
     * Deletes the click data of links that no longer exist, at most `budget` rows per call, in
     * statements of at most `chunk` rows (each its own short transaction, yielding in between,
     * so redirects and their click flushes are never held up). Returns the rows deleted; a link
     * whose data is only partly gone is finished by the next call.
     */
    async purgeDeletedLinks(budget: number, chunk = 10_000): Promise<number> {
      let deleted = 0
      // Every recorded click, human or bot, has an hourly row: the orphans show up there.
      const orphans = await db
        .selectFrom('link_click_hours')
        .select('link_id')
        .distinct()
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('links').select('id').whereRef('links.id', '=', 'link_click_hours.link_id'))),
        )
        .limit(100)
        .execute()
      for (const { link_id: linkId } of orphans)
        for (const [table, columns] of CLICK_TABLES) {
          for (;;) {
            if (deleted >= budget) return deleted
            const limit = Math.min(chunk, budget - deleted)
            // The key of the chunk's last row; then every row up to it (a row-value comparison,
            // which SQLite and PostgreSQL both support).
            const last = (await db
              .selectFrom(table)
              .select(columns)
              .where('link_id', '=', linkId)
              .orderBy(columns)
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
export type AnalyticsStore = ReturnType<typeof createAnalyticsStore>
