/** The redirect module's interfaces, imported by its own files (other modules import its index.ts). */
import type { ClickInput } from '../clicks/index.js'
import type { HotLinkCache, ResolvedLink } from './cache.js'
import type { RedirectRequest } from './click.js'

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

export type Lookup =
  | { kind: 'reserved' }
  | { kind: 'redirect'; link: ResolvedLink }
  | { kind: 'not-found' }
  | { kind: 'gone'; link: ResolvedLink }

/** The facts of a visit: the click's (RedirectRequest), the request-target and its raw query. */
export interface VisitRequest extends RedirectRequest {
  /** The request-target as sent (the password form posts back to it). */
  url: string
  /** The raw query string after `?` ('' when none). */
  rawQuery: string
}

export type VisitAnswer =
  /** A 3xx without body; `click`: what the visit records (none for an expired link's expiredUrl). */
  | { kind: 'redirect'; status: number; location: string; cacheControl: string; click?: ClickInput }
  /** A 200 HTML page (no body for HEAD); `csp` replaces the pages' own policy. */
  | { kind: 'page'; body: string | undefined; csp?: string; click?: ClickInput }
  /** 404 or 410: the error body, or a small page for browsers (`root`: the page of `/`). */
  | { kind: 'error'; status: 404 | 410; message: string; root?: boolean }
  /** A first path segment of the daemon's own routes: never a short code. */
  | { kind: 'reserved' }

export interface VisitOptions {
  /** Whether maxClicks lets this visit through (true for a link without maxClicks). */
  capOpen: boolean
  /** The right password was posted: the protected link redirects (POST /:code). */
  unlocked?: boolean
}

export type Visitor = (
  found: Lookup,
  code: string,
  req: VisitRequest,
  now: number,
  opts: VisitOptions,
) => VisitAnswer
