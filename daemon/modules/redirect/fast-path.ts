import type { IncomingMessage, ServerResponse } from 'node:http'
import { parse as parseQuery } from 'node:querystring'
import proxyAddr from '@fastify/proxy-addr'
import type { FastifyBaseLogger } from 'fastify'
import { clientKey } from '../../addresses.js'
import type { Clock } from '../../clock.js'
import { evaluate, type LocalRateLimitStore } from '../../http/rate-limit.js'
import { SHARED_DOMAIN_KEY } from '../links/index.js'
import type { RedirectService } from './api.js'

export type TrustProxy = boolean | string[] | ((addr: string, hop: number) => boolean)

export interface FastRedirectDeps {
  redirect: RedirectService
  clock: Clock
  /** The per-IP redirect windows: this process's own (no round trip on the hot path). */
  limiter: LocalRateLimitStore
  /** The redirect routes' per-IP window (LINKD_RATE_LIMIT_REDIRECTS_PER_IP). */
  perIpPerMinute: number
  trustProxy: TrustProxy
  nextRequestId(): string
  log: FastifyBaseLogger
}

/** A raw query that may hold a pair the click reads (utm_*, qr), however encoded. */
const CLICK_QUERY = /utm_|qr|%/

/** One path segment of short-code characters, with an optional query string. */
const SHORT_PATH = /^\/([A-Za-z0-9_-]{1,64})(?:\?|$)/

/**
 * A hot link's redirect, answered before Fastify: cached, active, on the shared domain, GET or
 * HEAD, within the per-IP window; anything else returns false and goes through the route. Both
 * write what the one visit decision (visit.ts) answers, the same bytes (tests compare them).
 * Why: docs/decisions/redirect-hot-path.md.
 */
export function createFastRedirect(
  deps: FastRedirectDeps,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const { redirect, clock, limiter, log } = deps
  const trust = deps.trustProxy === false ? undefined : trustFunction(deps.trustProxy)

  return function fastRedirect(req, res) {
    const method = req.method
    if (method !== 'GET' && method !== 'HEAD') return false
    const url = req.url ?? ''
    const m = SHORT_PATH.exec(url)
    if (!m) return false
    const receivedAt = performance.now()
    const socket = req.socket
    let host = req.headers.host
    let ip = socket.remoteAddress ?? ''
    if (trust) {
      // As Fastify derives request.ip and request.host behind trusted proxies.
      const addrs = proxyAddr.all(req, trust)
      ip = addrs[addrs.length - 1] ?? ip
      const forwardedHost = req.headers['x-forwarded-host']
      if (typeof forwardedHost === 'string' && trust(socket.remoteAddress ?? '', 0))
        host = forwardedHost.slice(forwardedHost.lastIndexOf(',') + 1).trim()
    }
    // The shared short domain only: custom domains go through Fastify, whose hooks upgrade plain
    // HTTP to HTTPS for domains with a certificate and answer their root redirect.
    const domainKey = redirect.domainOf(host)
    if (domainKey !== SHARED_DOMAIN_KEY) return false
    const code = m[1]!
    const found = redirect.lookupCached(domainKey, code)
    // A link with maxClicks asks the database on every visit, a protected link answers its form
    // and a link with og its preview page to crawlers, a smart link may answer the device page
    // and picks a click id per visit, a flagged link answers the warning page: the route does those.
    if (found?.kind !== 'redirect') return false
    const l = found.link
    if (l.maxClicks !== null || l.passwordHash !== null || l.og !== null || l.smart !== null) return false
    if (l.flagged !== null) return false

    const now = clock.now()
    const q = url.indexOf('?')
    const rawQuery = q === -1 ? '' : url.slice(q + 1)
    // The click reads only utm_* and qr from the query: a query that cannot name them (no `utm_`,
    // no `qr`, nothing percent-encoded) is not parsed.
    const query = CLICK_QUERY.test(rawQuery) ? (parseQuery(rawQuery) as Record<string, unknown>) : {}
    const answer = redirect.decide(
      found,
      code,
      { method, ip, headers: req.headers, query, receivedAt, url, rawQuery },
      now,
      { capOpen: true },
    )
    if (answer.kind !== 'redirect') return false
    const limit = evaluate(limiter.hit(`rip:${clientKey(ip)}`, 60_000, now), deps.perIpPerMinute, now)
    // Over the limit: Fastify answers the 429 (its hook counts the request once more, which
    // changes nothing: the window is already exhausted and Remaining stays 0).
    if (limit.exceeded) return false

    const id = deps.nextRequestId()
    if (answer.click) redirect.record(answer.click)

    // prettier-ignore
    // The same headers, in the same order, as the Fastify route (writeHead with a flat list
    // skips the per-header bookkeeping of setHeader). No body, so end() sends one write.
    const headers: Array<string | number> = [
      'x-request-id', id,
      'x-content-type-options', 'nosniff',
      'x-ratelimit-limit', limit.limit,
      'x-ratelimit-remaining', limit.remaining,
      'x-ratelimit-reset', limit.reset,
      'location', answer.location,
      'cache-control', answer.cacheControl,
      'content-length', '0',
    ]
    res.writeHead(answer.status, headers as string[]).end()
    // The line the Fastify route would log (http/request-log.ts).
    if (infoEnabled(log))
      log.info(
        {
          reqId: id,
          req: { method, url, host, ip },
          res: { statusCode: answer.status },
          responseTime: performance.now() - receivedAt,
        },
        'request completed',
      )
    return true
  }
}

/** Whether request logs are on (pino; Fastify's stand-in logger when logging is off has no levels). */
function infoEnabled(log: FastifyBaseLogger): boolean {
  return (log as Partial<{ isLevelEnabled(level: string): boolean }>).isLevelEnabled?.('info') === true
}

function trustFunction(value: Exclude<TrustProxy, false>): (addr: string, hop: number) => boolean {
  if (value === true) return () => true
  if (typeof value === 'function') return value
  return proxyAddr.compile(value)
}
