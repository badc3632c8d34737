/**
 * The quotas' counters in PostgreSQL, shared by every linkd process on the database: one row per
 * bucket and window, so that a limit of 100 per minute is 100 in total however many processes
 * serve the requests. A counted request is ONE statement whatever number of windows it counts
 * (`hitTiers`: an authenticated request's key and organization windows, one upsert … RETURNING
 * each, chained in one WITH so that the second is counted only while the first is within its
 * limit). Each request locks its rows in the same order (its key's, then its organization's), so
 * two requests never wait for each other's rows the other way round. UNLOGGED: counters are not
 * worth a write-ahead-log record; a server crash empties the table, which only forgives the
 * current windows (the table comes from migration 0015; one process on SQLite counts in memory
 * instead).
 */
import { sql, type Kysely, type RawBuilder } from 'kysely'
import type { Database } from '../db/schema.js'
import { addCountersOnConflict } from '../db/counters.js'
import type { QuotaTier, RateLimitHit, RateLimitStore } from './rate-limit.js'

const windowStart = (windowMs: number, now: number) => now - (now % windowMs)

const ADD_ONE = sql.raw(addCountersOnConflict('rate_limit_counters', ['bucket', 'window_start'], ['count']))
const INSERT_INTO = sql.raw('INSERT INTO rate_limit_counters (bucket, window_start, window_end, count)')

/** The row a tier's window adds (typed: in `SELECT … FROM` nothing else tells PostgreSQL the types). */
function tierRow(tier: QuotaTier, now: number): RawBuilder<unknown> {
  const start = windowStart(tier.windowMs, now)
  return sql`CAST(${tier.bucket} AS TEXT), CAST(${start} AS BIGINT), CAST(${start + tier.windowMs} AS BIGINT), 1`
}

export function createDatabaseRateLimitStore(db: Kysely<Database>): RateLimitStore {
  return {
    async hit(bucket, windowMs, now): Promise<RateLimitHit> {
      const start = windowStart(windowMs, now)
      const { rows } = await sql<{ count: number }>`
        ${INSERT_INTO} VALUES (${bucket}, ${start}, ${start + windowMs}, 1) ${ADD_ONE}
        RETURNING count`.execute(db)
      return { count: Number(rows[0]!.count), resetAt: start + windowMs }
    },
    async hitTiers(tiers, now): Promise<RateLimitHit[]> {
      if (tiers.length === 0) return []
      // tier0 counts unconditionally; tier i is counted from the row tier i-1 returned, only
      // when that count is within tier i-1's limit (no row: nothing inserted, nothing returned).
      const name = (i: number) => sql.raw(`tier${i}`)
      const steps = tiers.map((tier, i) => {
        const source =
          i === 0
            ? sql`VALUES (${tierRow(tier, now)})`
            : sql`SELECT ${tierRow(tier, now)} FROM ${name(i - 1)} WHERE ${name(i - 1)}.count <= ${tiers[i - 1]!.limit}`
        return sql`${name(i)} AS (${INSERT_INTO} ${source} ${ADD_ONE} RETURNING count)`
      })
      const counts = tiers.map((_, i) => sql`SELECT ${sql.lit(i)} AS tier, count FROM ${name(i)}`)
      const { rows } = await sql<{ tier: number; count: number }>`
        WITH ${sql.join(steps)} ${sql.join(counts, sql` UNION ALL `)}`.execute(db)
      const byTier = new Map(rows.map((r) => [Number(r.tier), Number(r.count)]))
      const hits: RateLimitHit[] = []
      for (const [i, tier] of tiers.entries()) {
        const count = byTier.get(i)
        if (count === undefined) break
        hits.push({ count, resetAt: windowStart(tier.windowMs, now) + tier.windowMs })
      }
      return hits
    },
    async peek(bucket, windowMs, now): Promise<RateLimitHit> {
      const start = windowStart(windowMs, now)
      const { rows } = await sql<{ count: number }>`
        SELECT count FROM rate_limit_counters WHERE bucket = ${bucket} AND window_start = ${start}`.execute(
        db,
      )
      return { count: Number(rows[0]?.count ?? 0), resetAt: start + windowMs }
    },
    async sweep(now): Promise<void> {
      await sql`DELETE FROM rate_limit_counters WHERE window_end <= ${now}`.execute(db)
    },
  }
}
