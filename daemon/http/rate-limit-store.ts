/**
 * The quotas' counters in PostgreSQL, shared by every process (a limit is a total). A request's
 * key and organization windows are one prepared statement, rows locked key first; the table is
 * UNLOGGED. Why: docs/decisions/rate-limit-counters.md. On SQLite the counters stay in memory.
 */
import type pg from 'pg'
import { addCountersOnConflict } from '../db/counters.js'
import type { QuotaTier, RateLimitHit, RateLimitStore } from './rate-limit.js'

const windowStart = (windowMs: number, now: number) => now - (now % windowMs)

const INSERT_INTO = 'INSERT INTO rate_limit_counters (bucket, window_start, window_end, count)'
const ADD_ONE = addCountersOnConflict('rate_limit_counters', ['bucket', 'window_start'], ['count'])

const HIT = `${INSERT_INTO} VALUES ($1, $2, $3, 1) ${ADD_ONE} RETURNING count`

/**
 * The statement counting `tiers` tiers: tier0 counts unconditionally; tier i is counted from the
 * row tier i-1 returned, only when that count is within tier i-1's limit (no row: nothing
 * inserted, nothing returned). Parameters per tier: bucket, window start, window end, and its
 * limit but for the last tier's (nothing after it to guard).
 */
function tiersStatement(tiers: number): string {
  const p = (tier: number, field: number) => `$${tier * 4 + field + 1}`
  const row = (i: number) =>
    `CAST(${p(i, 0)} AS TEXT), CAST(${p(i, 1)} AS BIGINT), CAST(${p(i, 2)} AS BIGINT), 1`
  const steps = Array.from({ length: tiers }, (_, i) => {
    const source =
      i === 0
        ? `VALUES (${row(i)})`
        : `SELECT ${row(i)} FROM tier${i - 1} WHERE tier${i - 1}.count <= CAST(${p(i - 1, 3)} AS BIGINT)`
    return `tier${i} AS (${INSERT_INTO} ${source} ${ADD_ONE} RETURNING count)`
  })
  const counts = Array.from({ length: tiers }, (_, i) => `SELECT ${i} AS tier, count FROM tier${i}`)
  return `WITH ${steps.join(', ')} ${counts.join(' UNION ALL ')}`
}

export function createDatabaseRateLimitStore(pool: pg.Pool): RateLimitStore {
  return {
    async hit(bucket, windowMs, now): Promise<RateLimitHit> {
      const start = windowStart(windowMs, now)
      const { rows } = await pool.query<{ count: string }>({
        name: 'linkd_quota_hit',
        text: HIT,
        values: [bucket, start, start + windowMs],
      })
      return { count: Number(rows[0]!.count), resetAt: start + windowMs }
    },
    async hitTiers(tiers, now): Promise<RateLimitHit[]> {
      if (tiers.length === 0) return []
      const values = tiers.flatMap((tier: QuotaTier, i) => {
        const start = windowStart(tier.windowMs, now)
        const row = [tier.bucket, start, start + tier.windowMs]
        return i < tiers.length - 1 ? [...row, tier.limit] : row
      })
      const { rows } = await pool.query<{ tier: number; count: string }>({
        name: `linkd_quota_tiers_${tiers.length}`,
        text: tiersStatement(tiers.length),
        values,
      })
      const byTier = new Map(rows.map((r) => [Number(r.tier), Number(r.count)]))
      const hits: RateLimitHit[] = []
      for (const [i, tier] of tiers.entries()) {
        const count = byTier.get(i)
        if (count === undefined) break
        hits.push({ count, resetAt: windowStart(tier.windowMs, now) + tier.windowMs })
      }
      return hits
    },
    async release(tiers, countedAt): Promise<void> {
      if (tiers.length === 0) return
      const rows = tiers.map((_, i) => `(bucket = $${i * 2 + 1} AND window_start = $${i * 2 + 2})`)
      await pool.query({
        name: `linkd_quota_release_${tiers.length}`,
        text: `UPDATE rate_limit_counters SET count = count - 1 WHERE count > 0 AND (${rows.join(' OR ')})`,
        values: tiers.flatMap((tier) => [tier.bucket, windowStart(tier.windowMs, countedAt)]),
      })
    },
    async peek(bucket, windowMs, now): Promise<RateLimitHit> {
      const start = windowStart(windowMs, now)
      const { rows } = await pool.query<{ count: string }>(
        'SELECT count FROM rate_limit_counters WHERE bucket = $1 AND window_start = $2',
        [bucket, start],
      )
      return { count: Number(rows[0]?.count ?? 0), resetAt: start + windowMs }
    },
    async sweep(now): Promise<void> {
      await pool.query('DELETE FROM rate_limit_counters WHERE window_end <= $1', [now])
    },
  }
}
