import type SQLite from 'better-sqlite3'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.js'
import type { Clock } from '../../clock.js'
import type { EventBus } from '../../events.js'
import { RESERVED_CODES } from '../../../src/contract/limits.js'
import {
  createHotLinkCache,
  type HotLinkCacheOptions,
  type LinkResolver,
  type ResolvedLink,
} from './cache.js'
import { createVisitorHasher } from './classify.js'
import { createDomainResolver } from './host.js'
import type { Locate } from './location.js'
import { createClickRecorder, type ClickInput } from './recorder.js'
import { createClickStore } from './store.js'

const RESERVED = new Set<string>(RESERVED_CODES.map((c) => c.toLowerCase()))
/** Characters a short code can have (generated codes and custom slugs alike). */
const CODE = /^[A-Za-z0-9_-]{1,64}$/

export type Lookup =
  | { kind: 'reserved' }
  | { kind: 'redirect'; link: ResolvedLink }
  | { kind: 'not-found' }
  | { kind: 'gone'; link: ResolvedLink }

export interface RedirectServiceDeps {
  links: LinkResolver
  events: EventBus
  clock: Clock
  sqlite: SQLite.Database
  db: Kysely<Database>
  masterKey: Buffer
  shortDomain: string
  /** Domain key (id) of a verified custom domain by host name. */
  customDomainOf?: (host: string) => string | undefined
  locate: Locate
  onError?(err: unknown): void
  /** Clicks dropped because the database kept refusing them (logged by the caller). */
  onDrop?(count: number, err: unknown): void
  cache?: HotLinkCacheOptions
  maxBuffer?: number
  flushMs?: number
}

/**
 * Resolving a request (host + code) to a redirect through the hot-link cache, and the click
 * recorder behind it. The cache forgets a link as soon as this process announces its update or
 * deletion.
 */
export function createRedirectService(deps: RedirectServiceDeps) {
  const domainOf = createDomainResolver(deps.shortDomain, deps.customDomainOf)
  const cache = createHotLinkCache(deps.links, deps.clock, deps.cache)
  deps.events.on('link.updated', (e) => cache.invalidate(e.data.id))
  deps.events.on('link.deleted', (e) => cache.invalidate(e.data.id))
  const recorder = createClickRecorder({
    store: createClickStore(deps.sqlite, deps.db),
    links: deps.links,
    events: deps.events,
    locate: deps.locate,
    visitorHash: createVisitorHasher(deps.masterKey),
    ...(deps.onError ? { onError: deps.onError } : {}),
    ...(deps.onDrop ? { onDrop: deps.onDrop } : {}),
    ...(deps.maxBuffer ? { maxBuffer: deps.maxBuffer } : {}),
    ...(deps.flushMs ? { flushMs: deps.flushMs } : {}),
  })

  const answer = (link: ResolvedLink | undefined): Lookup => {
    if (!link || link.status === 'inactive') return { kind: 'not-found' }
    // The cached copy may predate the expiry: check it against the clock on every request.
    if (link.status === 'expired' || (link.expiresAt !== null && link.expiresAt <= deps.clock.now()))
      return { kind: 'gone', link }
    return { kind: 'redirect', link }
  }

  return {
    domainOf,
    cache,
    recorder,

    /**
     * What `GET /:code` answers on the domain `domainKey` (domainOf(host)) when that is known
     * without I/O (reserved, malformed, or a link in the hot-link cache); undefined when the
     * database must be asked.
     */
    lookupCached(domainKey: string | undefined, code: string): Lookup | undefined {
      if (RESERVED.has(code.toLowerCase())) return { kind: 'reserved' }
      if (domainKey === undefined || !CODE.test(code)) return { kind: 'not-found' }
      const link = cache.peek(domainKey, code)
      return link ? answer(link) : undefined
    },

    /** What `GET /:code` on `host` answers. Reserved first segments are never short codes. */
    async lookup(host: string | undefined, code: string): Promise<Lookup> {
      const domainKey = domainOf(host)
      return this.lookupCached(domainKey, code) ?? answer(await cache.get(domainKey!, code))
    },

    /** Buffers the click of a redirect; never waits on the disk. */
    record(click: ClickInput): void {
      recorder.record(click)
    },
  }
}
export type RedirectService = ReturnType<typeof createRedirectService>
