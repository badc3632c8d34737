import type { Clock } from '../../clock.js'
import type { ResolvedLink } from '../links/index.js'
import { planOf } from './options.js'

export type { ResolvedLink }

/** What the redirect needs of the links service: resolving a code on a domain. */
export interface LinkResolver {
  resolve(domainKey: string, shortCode: string): Promise<ResolvedLink | undefined>
  /** A visit of a link with maxClicks: a human takes one click atomically, a bot only asks. */
  takeCappedClick(id: string, human: boolean): Promise<boolean>
}

export interface HotLinkCacheOptions {
  /** Most links kept; the least recently used is dropped first. */
  maxEntries?: number
  /** How long a resolved link is trusted without asking the database (at most 60 s). */
  ttlMs?: number
}

interface Entry {
  link: ResolvedLink
  fetchedAt: number
  /** Last move to the young end of the LRU order (moved at most once a second: hits are hot). */
  touchedAt: number
}

/**
 * In-memory cache of hot links in front of `resolve()`: LRU-bounded, entries live at most `ttlMs`
 * (other linkd processes sharing the database may change a link), and a link is dropped at once
 * when this process announces link.updated or link.deleted. Unknown codes are not cached, so a
 * link created a moment ago redirects at once. Concurrent misses for one code share one lookup.
 */
export function createHotLinkCache(resolver: LinkResolver, clock: Clock, opts: HotLinkCacheOptions = {}) {
  const maxEntries = opts.maxEntries ?? 10_000
  const ttlMs = Math.min(opts.ttlMs ?? 30_000, 60_000)
  const entries = new Map<string, Entry>()
  const keyById = new Map<string, string>()
  const pending = new Map<string, Promise<ResolvedLink | undefined>>()
  /** Bumped by every invalidation: a lookup that started before one must not store its answer. */
  let epoch = 0

  const keyOf = (domainKey: string, code: string) => `${domainKey}\n${code}`

  function drop(key: string): void {
    const e = entries.get(key)
    if (!e) return
    entries.delete(key)
    if (keyById.get(e.link.id) === key) keyById.delete(e.link.id)
  }

  function store(key: string, link: ResolvedLink, now: number): void {
    drop(key)
    // Rules are compiled once per cached copy, not per visit.
    planOf(link)
    entries.set(key, { link, fetchedAt: now, touchedAt: now })
    keyById.set(link.id, key)
    while (entries.size > maxEntries) {
      const oldest = entries.keys().next().value
      if (oldest === undefined) break
      drop(oldest)
    }
  }

  /** The link from memory when fresh, without a promise (the redirect's fast path). */
  function peek(domainKey: string, code: string): ResolvedLink | undefined {
    const key = keyOf(domainKey, code)
    const hit = entries.get(key)
    if (!hit) return undefined
    const now = clock.now()
    if (now - hit.fetchedAt >= ttlMs) return undefined
    if (now - hit.touchedAt >= 1000) {
      hit.touchedAt = now
      entries.delete(key)
      entries.set(key, hit)
    }
    return hit.link
  }

  return {
    peek,

    /** The link behind a code on a domain, from memory when fresh. */
    async get(domainKey: string, code: string): Promise<ResolvedLink | undefined> {
      const fresh = peek(domainKey, code)
      if (fresh) return fresh
      const key = keyOf(domainKey, code)
      const now = clock.now()
      if (entries.has(key)) drop(key)
      const inFlight = pending.get(key)
      if (inFlight) return inFlight
      const startedAt = epoch
      const lookup = resolver
        .resolve(domainKey, code)
        .then((link) => {
          if (link && startedAt === epoch) store(key, link, now)
          return link
        })
        .finally(() => {
          if (pending.get(key) === lookup) pending.delete(key)
        })
      pending.set(key, lookup)
      return lookup
    },

    /** Forgets a link (after link.updated / link.deleted). */
    invalidate(linkId: string): void {
      epoch++
      const key = keyById.get(linkId)
      if (key !== undefined) drop(key)
      // A lookup in flight may carry the old version: let it answer, but not be remembered.
      pending.clear()
    },

    clear(): void {
      epoch++
      entries.clear()
      keyById.clear()
      pending.clear()
    },

    get size(): number {
      return entries.size
    },
  }
}
export type HotLinkCache = ReturnType<typeof createHotLinkCache>
