import { collectProblems, validation } from '../../http/errors.js'
import { nestedDeeperThan, nestingMessage } from '../../http/json-guards.js'
import { FREE_FORM_NESTING_MAX, LINK_LIMITS, type LinkStatus } from '../../../src/contract/limits.js'
import type { LinkRecord } from './records.js'

/** Domain key (links.domain_key) of the shared short domain; a custom domain's key is its id. */
export const SHARED_DOMAIN_KEY = ''

/** The link's status as users and redirects see it: past its expiry, an active or inactive link is expired. */
export function effectiveStatus(l: Pick<LinkRecord, 'status' | 'expiresAt'>, now: number): LinkStatus {
  if (l.status !== 'expired' && l.expiresAt !== null && l.expiresAt <= now) return 'expired'
  return l.status
}

/**
 * The first path segments of the daemon's own routes (`api`, `health`, `metrics`, `docs`,
 * `.well-known`, …): a short code spelled like one would be shadowed by the route, so none is a
 * short code, in any case (codes are case-sensitive, but `/Metrics` and `/metrics` read as the
 * same address to people). Filled from the route table as routes register (the links module's
 * onRoute hook), so a new route reserves its segment without a list to keep.
 */
export interface ReservedCodes {
  /** Records the first segment of a route path; a parameter or wildcard there reserves nothing. */
  addRoute(path: string): void
  /** Whether `code` is a reserved segment, whatever its case. */
  has(code: string): boolean
  /** The reserved segments, lower case, sorted. */
  list(): string[]
}

export function createReservedCodes(): ReservedCodes {
  const reserved = new Set<string>()
  return {
    addRoute(path) {
      const first = path.split('/')[1] ?? ''
      if (first !== '' && !first.startsWith(':') && !first.includes('*')) reserved.add(first.toLowerCase())
    },
    has: (code) => reserved.has(code.toLowerCase()),
    list: () => [...reserved].sort(),
  }
}

/** `host` or `host:port` (IPv6 in brackets), lowercase, without a trailing dot. */
export interface HostPort {
  host: string
  port: string | undefined
}
export function splitHostPort(value: string): HostPort {
  const h = value.trim().toLowerCase()
  const v6 = /^(\[[^\]]+\])(?::(\d+))?$/.exec(h)
  const m = v6 ?? /^(.*?)(?::(\d+))?$/.exec(h)!
  let host = m[1]!.replace(/\.$/, '')
  try {
    // The URL parser's spelling, as destinations are compared in it (punycode, 127.1 → 127.0.0.1).
    host = new URL(`http://${host}`).hostname.replace(/\.$/, '')
  } catch {
    // Not a host a URL can name: compared as written.
  }
  return { host, port: m[2] }
}

/**
 * The host of a destination when it is one of this service's short domains, else undefined:
 * `shared` are the shared short domain and the public URL's host (a port, when they name one,
 * must match the URL's port, explicit or the scheme's default), `isCustomDomain` answers for
 * the custom domains (any port).
 */
export function ownHostOf(
  value: string,
  own: { shared: readonly HostPort[]; isCustomDomain(host: string): boolean },
): string | undefined {
  const url = new URL(value)
  const host = url.hostname.replace(/\.$/, '')
  const port = url.port || (url.protocol === 'https:' ? '443' : '80')
  if (own.shared.some((s) => s.host === host && (s.port === undefined || s.port === port))) return host
  return own.isCustomDomain(host) ? host : undefined
}

export function checkSlug(slug: string, reserved: ReservedCodes, field = 'customSlug'): string {
  if (reserved.has(slug))
    throw validation(
      field,
      `"${slug}" is reserved: linkd serves /${slug.toLowerCase()} itself (reserved, in any case: ${reserved.list().join(', ')}); choose another`,
    )
  return slug
}

/** Trims the title; an empty title is no title. */
export function normalizeTitle(title: string | null | undefined): string | null | undefined {
  if (title === undefined || title === null) return title
  const t = title.trim()
  return t === '' ? null : t
}

/** Trimmed, without empties rejected, de-duplicated (first spelling kept, order kept); every bad tag named. */
export function normalizeTags(tags: string[] | undefined): string[] | undefined {
  if (tags === undefined) return undefined
  const out: string[] = []
  const problems = collectProblems()
  tags.forEach((raw, i) => {
    const tag = raw.trim()
    if (tag === '') problems.add(`tags.${i}`, 'must not be empty or blank')
    // Characters (code points), as the schema counts them: an emoji is one, not two.
    else if ([...tag].length > LINK_LIMITS.tagMax)
      problems.add(`tags.${i}`, `must be at most ${LINK_LIMITS.tagMax} characters`)
    else if (!out.includes(tag)) out.push(tag)
  })
  problems.done()
  return out
}

export function checkMetadata(
  metadata: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  if (metadata === undefined) return undefined
  // First, before anything walks it recursively (JSON.stringify below).
  if (nestedDeeperThan(metadata, FREE_FORM_NESTING_MAX))
    throw validation('metadata', nestingMessage(FREE_FORM_NESTING_MAX))
  const keys = Object.keys(metadata).length
  if (keys > LINK_LIMITS.metadataKeysMax)
    throw validation('metadata', `has ${keys} keys; at most ${LINK_LIMITS.metadataKeysMax} are allowed`)
  const bytes = Buffer.byteLength(JSON.stringify(metadata), 'utf8')
  if (bytes > LINK_LIMITS.metadataBytesMax)
    throw validation(
      'metadata',
      `is ${bytes} bytes as JSON; at most ${LINK_LIMITS.metadataBytesMax} bytes are allowed`,
    )
  return metadata
}
