/** `GET|HEAD /:code`, its fast path and the hot-link cache; owns no table. */
export { createRedirectService, type Lookup } from './service.js'
export { createFastRedirect, type FastRedirectDeps } from './fast-path.js'
export { hostName } from './host.js'
export { type HotLinkCache } from './cache.js'
import type { Clock } from '../../clock.js'
import type { ClickInput } from '../clicks/index.js'
import type { Module } from '../module.js'
import type { HotLinkCache } from './cache.js'
import { redirectRoutes } from './routes.js'
import type { Lookup } from './service.js'
import type { ResolvedLink } from './cache.js'
import type { VisitAnswer, Visitor, VisitRequest } from './visit.js'

export interface RedirectService {
  /** The domain key a request's Host names ('' shared, a custom domain's id), undefined if not ours. */
  domainOf(host: string | undefined): string | undefined
  /** The hot-link cache in front of the links service. */
  cache: HotLinkCache
  /** The answer for a code on a domain when known without I/O; undefined when the database must be asked. */
  lookupCached(domainKey: string | undefined, code: string): Lookup | undefined
  /** What `GET /:code` on `host` answers. */
  lookup(host: string | undefined, code: string): Promise<Lookup>
  /** The one decision of a visit, without I/O (the fast path, the password form's POST). */
  decide: Visitor
  /** What GET|HEAD /:code on `host` answers: lookup, maxClicks, then `decide`. */
  visit(host: string | undefined, code: string, req: VisitRequest): Promise<VisitAnswer>
  /** A visit of a link with maxClicks: true while it redirects (a human visit takes one click). */
  takeCappedClick(link: ResolvedLink, method: string, userAgent: string): Promise<boolean>
  /** A link with maxClicks: whether clicks are left, without taking one. */
  capOpen(link: ResolvedLink): Promise<boolean>
  /** Whether `password` is the protected link's. */
  checkPassword(link: ResolvedLink, password: string): Promise<boolean>
  /** When the link's password lockout (too many wrong tries from all addresses) ends; undefined: not locked. */
  passwordLockedUntil(link: ResolvedLink): Promise<number | undefined>
  /** Counts a wrong password of the link across addresses (and processes, on PostgreSQL). */
  wrongPassword(link: ResolvedLink): Promise<void>
  /** Hands the click of a redirect over to the clicks module; never waits on the disk. */
  record(click: ClickInput): void
}

/** Short-link resolution; its hot-link cache forgets a link as soon as this process announces a change. */
export function redirectModule(deps: { redirect: RedirectService; clock: Clock }): Module {
  const { cache } = deps.redirect
  return {
    name: 'redirect',
    routes: redirectRoutes(deps),
    subscriptions(events) {
      events.on('link.updated', (e) => cache.invalidate(e.data.id))
      events.on('link.deleted', (e) => cache.invalidate(e.data.id))
    },
  }
}
