import type { IncomingHttpHeaders } from 'node:http'
import type { ClickInput } from '../clicks/index.js'
import type { ResolvedLink } from './cache.js'

/** Longest user agent and Referer kept from a request (longer ones are cut). */
export const USER_AGENT_MAX = 1024
export const REFERER_MAX = 2048

/** The facts of a redirect request that its click is made of. */
export interface RedirectRequest {
  method: string
  /** The client address, proxies resolved (as Fastify's request.ip). */
  ip: string
  headers: IncomingHttpHeaders
  query: Record<string, unknown> | undefined
  /** performance.now() when the request arrived. */
  receivedAt: number
}

/**
 * The click input both redirect paths hand over (the fast path in fast-path.ts and the Fastify
 * route in routes.ts): raw request facts, the user agent and Referer cut to size, and the
 * server's response time so far. Enrichment happens in the clicks module, off the request path.
 */
export function clickInput(link: ResolvedLink, ts: number, req: RedirectRequest): ClickInput {
  const ua = req.headers['user-agent']
  const referer = req.headers.referer
  return {
    link,
    ts,
    method: req.method,
    ip: req.ip,
    userAgent: typeof ua === 'string' ? ua.slice(0, USER_AGENT_MAX) : '',
    referer: typeof referer === 'string' ? referer.slice(0, REFERER_MAX) : undefined,
    query: req.query,
    responseMs: performance.now() - req.receivedAt,
    // Set by the visit decision for a link with variants; present from the start, so that every
    // click keeps one object shape on the hot path.
    variant: undefined,
    visitorHash: undefined,
  }
}
