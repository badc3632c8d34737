import type { Clock } from '../../clock.js'
import {
  createHotLinkCache,
  type HotLinkCacheOptions,
  type LinkResolver,
  type ResolvedLink,
} from './cache.js'
import { botReason, type ClickInput, type ClicksService } from '../clicks/index.js'
import type { CountryOf } from './options.js'
import { createDomainResolver } from './host.js'
import { verifyPassword } from '../../password.js'
import { iso } from '../../clock.js'
import type { EventBus } from '../../events.js'
import type { RateLimitStore } from '../../http/rate-limit.js'
import { PASSWORD_LINK_TRIES, PASSWORD_WINDOW_MS } from './protected.js'
import { createVisitor, takesClick, userAgentOf } from './visit.js'
import type { Lookup, RedirectService, VisitAnswer, VisitRequest } from './api.js'
import type { ReservedCodes } from '../links/index.js'

/** Characters a short code can have (generated codes and custom slugs alike). */
const CODE = /^[A-Za-z0-9_-]{1,64}$/

export interface RedirectServiceDeps {
  links: LinkResolver
  /** The daemon's own first path segments (the links module's): never short codes. */
  reserved: Pick<ReservedCodes, 'has'>
  /** Where the click of each redirect goes (the clicks module records it). */
  clicks: Pick<ClicksService, 'record' | 'visitorHash'>
  clock: Clock
  shortDomain: string
  /** Domain key (id) of a verified custom domain by host name. */
  customDomainOf?: (host: string) => string | undefined
  /** The country of a visitor for `country` rules (the clicks' geolocation); none: never matches. */
  countryOf?: CountryOf
  cache?: HotLinkCacheOptions
  /** The shared quota counters: a password link's wrong tries from every address. */
  limiter: Pick<RateLimitStore, 'hit' | 'peek'>
  events: EventBus
}

const lockBucket = (link: ResolvedLink) => `pwd-link:${link.id}`

/**
 * Resolving a request (host + code) to a redirect through the hot-link cache, and handing each
 * redirect's click over to the clicks module. The redirect module's subscriptions make the cache
 * forget a link as soon as this process announces its update or deletion (see ./index.ts).
 */
export function createRedirectService(deps: RedirectServiceDeps): RedirectService {
  const domainOf = createDomainResolver(deps.shortDomain, deps.customDomainOf)
  const cache = createHotLinkCache(deps.links, deps.clock, deps.cache)
  const { clicks } = deps

  const decide = createVisitor(deps.countryOf ?? (() => null), clicks.visitorHash)

  const answer = (link: ResolvedLink | undefined): Lookup => {
    if (!link || link.status === 'inactive') return { kind: 'not-found' }
    // The cached copy may predate the start or the expiry: check them against the clock every time.
    if (link.startsAt !== null && link.startsAt > deps.clock.now()) return { kind: 'not-found' }
    if (link.status === 'expired' || (link.expiresAt !== null && link.expiresAt <= deps.clock.now()))
      return { kind: 'gone', link }
    return { kind: 'redirect', link }
  }

  return {
    domainOf,
    cache,

    /**
     * What `GET /:code` answers on the domain `domainKey` (domainOf(host)) when that is known
     * without I/O (reserved, malformed, or a link in the hot-link cache); undefined when the
     * database must be asked.
     */
    lookupCached(domainKey: string | undefined, code: string): Lookup | undefined {
      if (deps.reserved.has(code)) return { kind: 'reserved' }
      if (domainKey === undefined || !CODE.test(code)) return { kind: 'not-found' }
      const link = cache.peek(domainKey, code)
      return link ? answer(link) : undefined
    },

    /** What `GET /:code` on `host` answers. Reserved first segments are never short codes. */
    async lookup(host: string | undefined, code: string): Promise<Lookup> {
      const domainKey = domainOf(host)
      return this.lookupCached(domainKey, code) ?? answer(await cache.get(domainKey!, code))
    },

    decide,

    /**
     * The answer to GET|HEAD /:code on `host`: the lookup, the link's maxClicks asked when it has
     * some (a visit that ends in the password form or a preview only looks), then the decision.
     */
    async visit(host: string | undefined, code: string, req: VisitRequest): Promise<VisitAnswer> {
      const found = await this.lookup(host, code)
      const link = found.kind === 'redirect' ? found.link : undefined
      const capOpen =
        link === undefined ||
        link.maxClicks === null ||
        (takesClick(link, req)
          ? await this.takeCappedClick(link, req.method, userAgentOf(req))
          : await this.capOpen(link))
      return decide(found, code, req, deps.clock.now(), { capOpen })
    },

    /**
     * A visit of a link with maxClicks: whether it still redirects to a destination. A human
     * visit (as the clicks module classifies it: bots and HEAD never count) takes one click.
     */
    takeCappedClick(link: ResolvedLink, method: string, userAgent: string): Promise<boolean> {
      return deps.links.takeCappedClick(link.id, botReason(method, userAgent) === null)
    },

    /** A link with maxClicks: whether clicks are left, without taking one (the password form). */
    capOpen(link: ResolvedLink): Promise<boolean> {
      return deps.links.takeCappedClick(link.id, false)
    },

    /** Whether `password` is the protected link's (scrypt, constant-time compare). */
    checkPassword(link: ResolvedLink, password: string): Promise<boolean> {
      return link.passwordHash === null ? Promise.resolve(false) : verifyPassword(password, link.passwordHash)
    },

    /** When the link's password lockout ends (Unix ms), or undefined when it is not locked. */
    async passwordLockedUntil(link: ResolvedLink): Promise<number | undefined> {
      const used = await deps.limiter.peek(lockBucket(link), PASSWORD_WINDOW_MS, deps.clock.now())
      return used.count >= PASSWORD_LINK_TRIES ? used.resetAt : undefined
    },

    /** Counts a wrong password of the link; the try that locks it announces link.password_locked. */
    async wrongPassword(link: ResolvedLink): Promise<void> {
      const now = deps.clock.now()
      const used = await deps.limiter.hit(lockBucket(link), PASSWORD_WINDOW_MS, now)
      if (used.count === PASSWORD_LINK_TRIES)
        deps.events.emit(
          'link.password_locked',
          {
            organizationId: link.organizationId,
            data: {
              linkId: link.id,
              shortUrl: link.shortUrl,
              shortCode: link.shortCode,
              wrongTries: used.count,
              lockedUntil: iso(used.resetAt),
            },
          },
          now,
        )
    },

    /** Hands the click of a redirect over to the clicks module; never waits on the disk. */
    record(click: ClickInput): void {
      clicks.record(click)
    },
  }
}
