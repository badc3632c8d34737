/**
 * How a `links` row is shown: a link or a smart link as the API and the link.* events carry it,
 * and what the redirect needs of either (ResolvedLink).
 */
import { iso, isoOrNull } from '../../clock.js'
import type { SmartLinkEventData } from '../../events.js'
import type { Link, LinkOg, LinkRule } from '../../../src/contract/links.js'
import type { LinkStatus } from '../../../src/contract/limits.js'
import type { SmartLink } from '../../../src/contract/smart-links.js'
import type { LinkVariant } from '../../../src/contract/variants.js'
import type { LinkRecord, SmartTargets } from './records.js'
import { effectiveStatus } from './rules.js'

type RedirectType = Link['redirectType']
export type ShortUrlOf = (l: Pick<LinkRecord, 'domainKey' | 'shortCode'>) => string

/** What the redirect needs of a link (the redirect module's resolver and hot-link cache). */
export interface ResolvedLink {
  id: string
  organizationId: string
  shortCode: string
  shortUrl: string
  destinationUrl: string
  redirectType: RedirectType
  /** Effective status: expiry applied with clock.now() at resolve time. */
  status: LinkStatus
  expiresAt: number | null
  /** Where an expired link redirects instead of answering 410; null: 410. */
  expiredUrl: string | null
  /** Human clicks after which the link is expired; the redirect takes each one atomically. */
  maxClicks: number | null
  /** Before it, the short URL answers 404. */
  startsAt: number | null
  forwardQuery: boolean
  rules: LinkRule[]
  title: string | null
  /** scrypt hash of the password; a visit gets the password form first. Null: none. */
  passwordHash: string | null
  /** Open Graph tags for link-preview crawlers; null: crawlers get the redirect. */
  og: LinkOg | null
  /** A smart link's targets (destinationUrl is its fallback); null for a plain link. */
  smart: (SmartTargets & { appendClickId: boolean }) | null
  /** Split destinations ([]: none); a smart link's split its fallback. */
  variants: LinkVariant[]
  /** A destination found on a safety list: visits get the warning page, never the redirect. */
  flagged: { host: string; list: string } | null
}

/** Past its expiry, or every click of its maxClicks taken: expired. */
function statusOf(l: LinkRecord, t: number): LinkStatus {
  const s = effectiveStatus(l, t)
  return s === 'active' && l.maxClicks !== null && l.cappedClicks >= l.maxClicks ? 'expired' : s
}

const flagOf = (f: NonNullable<LinkRecord['flag']>) => ({ host: f.host, list: f.list, flaggedAt: iso(f.at) })

/** A link as the API shows it at time `t`. */
export function presentLink(l: LinkRecord, t: number, shortUrlOf: ShortUrlOf): Link {
  return {
    id: l.id,
    shortUrl: shortUrlOf(l),
    shortCode: l.shortCode,
    destinationUrl: l.destinationUrl,
    title: l.title,
    status: statusOf(l, t),
    clicks: l.clicks,
    createdAt: iso(l.createdAt),
    updatedAt: iso(l.updatedAt),
    tags: l.tags,
    metadata: l.metadata,
    expiresAt: isoOrNull(l.expiresAt),
    customDomainId: l.customDomainId,
    redirectType: l.redirectType as RedirectType,
    expiredUrl: l.expiredUrl,
    maxClicks: l.maxClicks,
    startsAt: isoOrNull(l.startsAt),
    forwardQuery: l.forwardQuery,
    rules: l.rules,
    variants: l.variants,
    passwordProtected: l.passwordHash !== null,
    og: l.og,
    ...(l.flag && { flagged: flagOf(l.flag) }),
  }
}

/** A smart link as the API shows it. */
export function presentSmart(l: LinkRecord, shortUrlOf: ShortUrlOf): SmartLink {
  const targets = l.targets ?? { ios: null, android: null, desktop: null }
  return {
    id: l.id,
    shortUrl: shortUrlOf(l),
    shortCode: l.shortCode,
    customDomainId: l.customDomainId,
    title: l.title,
    tags: l.tags,
    fallbackUrl: l.destinationUrl,
    ios: targets.ios,
    android: targets.android,
    desktop: targets.desktop,
    appendClickId: l.appendClickId,
    gameId: l.gameId,
    variants: l.variants,
    clicks: l.clicks,
    createdAt: iso(l.createdAt),
    updatedAt: iso(l.updatedAt),
    ...(l.flag && { flagged: flagOf(l.flag) }),
  }
}

/** What link.created / link.updated carry: the link, or the smart link marked kind 'smart'. */
export function eventData(l: LinkRecord, t: number, shortUrlOf: ShortUrlOf): Link | SmartLinkEventData {
  return l.kind === 'smart'
    ? { ...presentSmart(l, shortUrlOf), kind: 'smart' }
    : presentLink(l, t, shortUrlOf)
}

/** The redirect's view of a link or smart link, its status at time `t`. */
export function resolvedOf(l: LinkRecord, t: number, shortUrlOf: ShortUrlOf): ResolvedLink {
  return {
    id: l.id,
    organizationId: l.organizationId,
    shortCode: l.shortCode,
    shortUrl: shortUrlOf(l),
    destinationUrl: l.destinationUrl,
    redirectType: l.redirectType as RedirectType,
    status: effectiveStatus(l, t),
    expiresAt: l.expiresAt,
    expiredUrl: l.expiredUrl,
    maxClicks: l.maxClicks,
    startsAt: l.startsAt,
    forwardQuery: l.forwardQuery,
    rules: l.rules,
    title: l.title,
    passwordHash: l.passwordHash,
    og: l.og,
    smart: l.kind === 'smart' && l.targets ? { ...l.targets, appendClickId: l.appendClickId } : null,
    variants: l.variants,
    flagged: l.flag && { host: l.flag.host, list: l.flag.list },
  }
}
