/**
 * The quotas' counters in PostgreSQL, shared by every linkd process on the database: one row per
 * bucket and window, one upsert … RETURNING per counted request (`hit`), so that a limit of
 * 100 per minute is 100 in total however many processes serve the requests. UNLOGGED: counters
 * are not worth a write-ahead-log record; a server crash empties the table, which only forgives
 * the current windows (the table comes from migration 0015; one process on SQLite counts in
 * memory instead).
 */
import { sql, type Kysely } from 'kysely'
import type { Database } from '../db/schema.js'
import type { RateLimitHit, RateLimitStore } from './rate-limit.js'

const windowStart = (windowMs: number, now: number) => now - (now % windowMs)

export function createDatabaseRateLimitStore(db: Kysely<Database>): RateLimitStore {
  return {
    async hit(bucket, windowMs, now): Promise<RateLimitHit> {
      const start = windowStart(windowMs, now)
      const { rows } = await sql<{ count: number }>`
        INSERT INTO rate_limit_counters (bucket, window_start, window_end, count)
        VALUES (${bucket}, ${start}, ${start + windowMs}, 1)
        ON CONFLICT (bucket, window_start) DO UPDATE SET count = rate_limit_counters.count + 1
        RETURNING count`.execute(db)
      return { count: Number(rows[0]!.count), resetAt: start + windowMs }
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
