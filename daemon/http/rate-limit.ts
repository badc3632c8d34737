import type { FastifyReply } from 'fastify'

export interface RateLimitHit {
  count: number
  /** Unix ms when the window ends. */
  resetAt: number
}

/**
 * Counters behind an interface: in-process now, shared (e.g. the database or Redis) when several
 * linkd processes serve one database. Fixed windows aligned to multiples of the window length.
 */
export interface RateLimitStore {
  hit(bucket: string, windowMs: number, now: number): RateLimitHit
  peek(bucket: string, windowMs: number, now: number): RateLimitHit
}

export function createMemoryRateLimitStore(): RateLimitStore & { sweep(now: number): void; size(): number } {
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
