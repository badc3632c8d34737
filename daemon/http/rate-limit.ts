import type { FastifyReply } from 'fastify'

export interface RateLimitHit {
  count: number
  /** Unix ms when the window ends. */
  resetAt: number
}

/**
 * Fixed windows aligned to multiples of the window length. Two kinds of counters:
 * - the quotas (per API key, per organization, per game's ingestion) are `RateLimitStore`: one
 *   count for every linkd process on PostgreSQL (rate-limit-store.ts: a counter table, one
 *   statement per request, whichever number of windows it counts), this process's memory on
 *   SQLite;
 * - the per-IP windows (API and redirects) are `LocalRateLimitStore`: each process's own memory,
 *   synchronous (the redirect fast path pays no promise and no round trip); with N processes
 *   behind a load balancer an IP gets up to N times the limit (docs/operations.md).
 */
export interface LocalRateLimitStore {
  hit(bucket: string, windowMs: number, now: number): RateLimitHit
  peek(bucket: string, windowMs: number, now: number): RateLimitHit
}

/** One window an authenticated request counts in: its bucket, window length and limit. */
export interface QuotaTier {
  bucket: string
  windowMs: number
  limit: number
}

export interface RateLimitStore {
  hit(bucket: string, windowMs: number, now: number): Promise<RateLimitHit>
  peek(bucket: string, windowMs: number, now: number): Promise<RateLimitHit>
  /**
   * Counts the request in `tiers` in their order, as one step: a tier is counted only while every
   * earlier one is within its limit (a request its key's window refuses does not use up its
   * organization's). The hits of the tiers counted, in order: all of them, or up to and including
   * the first one over its limit.
   */
  hitTiers(tiers: readonly QuotaTier[], now: number): Promise<RateLimitHit[]>
  /**
   * Takes back one count of each window of `tiers` that a request counted at `countedAt` (a
   * request that turned out not to use the quota: a replay answered from its stored response).
   * Never below 0; a window already forgotten stays forgotten.
   */
  release(tiers: readonly Omit<QuotaTier, 'limit'>[], countedAt: number): Promise<void>
  /** Forgets windows that ended before `now` (every minute). */
  sweep?(now: number): Promise<void> | void
}

export type MemoryRateLimitStore = LocalRateLimitStore & {
  sweep(now: number): void
  size(): number
  /** One count less in the bucket's window that holds `at`, if it is the current one. */
  release(bucket: string, windowMs: number, at: number): void
}

/** The quotas in this process's memory (one process: SQLite). */
export function inProcessQuotas(memory: MemoryRateLimitStore): RateLimitStore {
  return {
    hit: async (bucket, windowMs, now) => memory.hit(bucket, windowMs, now),
    peek: async (bucket, windowMs, now) => memory.peek(bucket, windowMs, now),
    async hitTiers(tiers, now) {
      const hits: RateLimitHit[] = []
      for (const tier of tiers) {
        const hit = memory.hit(tier.bucket, tier.windowMs, now)
        hits.push(hit)
        if (hit.count > tier.limit) break
      }
      return hits
    },
    async release(tiers, countedAt) {
      for (const tier of tiers) memory.release(tier.bucket, tier.windowMs, countedAt)
    },
  }
}

export function createMemoryRateLimitStore(): MemoryRateLimitStore {
  const windows = new Map<string, { start: number; end: number; count: number }>()
  const current = (bucket: string, windowMs: number, now: number) => {
    const start = Math.floor(now / windowMs) * windowMs
    let w = windows.get(bucket)
    if (!w || w.start !== start) {
      w = { start, end: start + windowMs, count: 0 }
      windows.set(bucket, w)
    }
    return w
  }
  return {
    hit(bucket, windowMs, now) {
      const w = current(bucket, windowMs, now)
      w.count++
      return { count: w.count, resetAt: w.end }
    },
    peek(bucket, windowMs, now) {
      const w = current(bucket, windowMs, now)
      return { count: w.count, resetAt: w.end }
    },
    release(bucket, windowMs, at) {
      const w = windows.get(bucket)
      if (w && w.start === Math.floor(at / windowMs) * windowMs && w.count > 0) w.count--
    },
    sweep(now) {
      for (const [k, w] of windows) if (w.end <= now) windows.delete(k)
    },
    size: () => windows.size,
  }
}

export interface LimitState {
  limit: number
  remaining: number
  /** Unix seconds. */
  reset: number
  exceeded: boolean
  retryAfter: number
}

export function evaluate(hit: RateLimitHit, limit: number, now: number): LimitState {
  const exceeded = hit.count > limit
  return {
    limit,
    remaining: Math.max(0, limit - hit.count),
    reset: Math.ceil(hit.resetAt / 1000),
    exceeded,
    retryAfter: Math.max(1, Math.ceil((hit.resetAt - now) / 1000)),
  }
}

export function setRateLimitHeaders(reply: FastifyReply, s: LimitState): void {
  reply.header('x-ratelimit-limit', s.limit)
  reply.header('x-ratelimit-remaining', s.remaining)
  reply.header('x-ratelimit-reset', s.reset)
}
