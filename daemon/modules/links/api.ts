/** The links module's interfaces, imported by its own files (other modules import its index.ts). */
import type { PageOf } from '../../../src/contract/common.js'
import type {
  BulkCreateResult,
  CreateLinkBody,
  ImportLinksBody,
  ImportLinksResult,
  Link,
  ListLinksQuery,
  QrQuery,
  UpdateLinkBody,
} from '../../../src/contract/links.js'
import type {
  CreateSmartLinkBody,
  ListSmartLinksQuery,
  SmartLink,
  UpdateSmartLinkBody,
} from '../../../src/contract/smart-links.js'
import type { LinkVariant } from '../../../src/contract/variants.js'
import type { Clock } from '../../clock.js'
import type { UnitOfWork } from '../../db/unit-of-work.js'
import type { EventBus } from '../../events.js'
import type { ErrorDetail } from '../../http/errors.js'
import type { QrImage } from '../../qr/index.js'
import type { DomainDirectory } from '../domains/index.js'
import type { ResolvedLink } from './present.js'
import type { Destination } from './destinations.js'
import type { LinkKind } from './records.js'
import type { ReservedCodes } from './rules.js'
import type { LinkStore } from './store.js'

/** A link or smart link as analytics and QR codes read it. */
export interface OwnedLink {
  id: string
  kind: LinkKind
  shortUrl: string
  /** Its split destinations ([]: none). */
  variants: LinkVariant[]
}

/** What install attribution reads of a link. */
export interface LinkRef {
  shortUrl: string
  destinationUrl: string
}

export interface LinkService {
  /** Creates a link on its domain (custom slug or generated code); announces link.created. */
  create(organizationId: string, body: CreateLinkBody): Promise<Link>
  /** Up to 1,000 create bodies, each validated on its own, the valid ones committed together. */
  bulkCreate(organizationId: string, items: unknown[], validate: ItemValidator): Promise<BulkCreateResult>
  /** Another shortener's export file (or linkd's), each row created like a bulk item; or a dry run. */
  importFile(
    organizationId: string,
    body: ImportLinksBody,
    validate: ItemValidator,
  ): Promise<ImportLinksResult>
  /** A page of the organization's links (status, search, tag, sort). */
  list(organizationId: string, q: ListLinksQuery): Promise<PageOf<Link>>
  /** One link; 404 otherwise. */
  get(organizationId: string, id: string): Promise<Link>
  /** Edits a link (a new expiry brings an expired one back); announces link.updated. */
  update(organizationId: string, id: string, body: UpdateLinkBody): Promise<Link>
  /** Deletes a link; announces link.deleted. */
  delete(organizationId: string, id: string): Promise<void>
  /** The QR image of `${shortUrl}?qr=1`; the first one generated for a link is announced. */
  qr(organizationId: string, id: string, q: QrQuery): Promise<QrImage>
  /** Any link or smart link of the organization, by id (analytics, QR codes); 404 otherwise. */
  owned(organizationId: string, id: string): Promise<OwnedLink>
  /**
   * Short URL and destination (a smart link's fallback) of the organization's links among `ids`;
   * deleted and other organizations' links are left out (install attribution reads them).
   */
  refs(organizationId: string, ids: readonly string[]): Promise<Map<string, LinkRef>>
  /** For the redirect: the link (or smart link) behind a code on a domain, with its effective status. */
  resolve(domainKey: string, shortCode: string): Promise<ResolvedLink | undefined>
  /** A redirect of a link with maxClicks: a human takes a click atomically, a bot only asks. */
  takeCappedClick(id: string, human: boolean): Promise<boolean>
  /** Adds human clicks to links.clicks, inside the caller's unit of work when given. */
  addClicks(deltas: ReadonlyArray<ClickDelta>, unit?: UnitOfWork): Promise<void>
  /** Which of `ids` are links that still exist (any organization): the clicks purge asks. */
  existingIds(ids: readonly string[]): Promise<Set<string>>
  /** Clicks of the organization's links on custom domains (the domains stats). */
  customDomainClicks(organizationId: string): Promise<number>
  /**
   * The rules of a link destination for another URL visitors are sent to (a custom domain's
   * root redirect): checkDestination, not one of this service's short domains, not on the
   * organization's safety lists (400 naming `field`). Returns the URL as stored.
   */
  checkDestination(organizationId: string, url: string, field: string): Promise<string>
  /** Moves a deleted custom domain's links to the shared domain (renaming clashes); returns how many. */
  detachDomain(domainId: string): Promise<number>
  /** Job: persists 'expired' for links past their expiry; returns how many. */
  expireDue(): Promise<number>
  /**
   * The safety re-check's reading: up to `limit` links and smart links with ids after `afterId`
   * (in id order; one organization's when given), each with its destinations and current flag.
   */
  destinationsPage(q: {
    organizationId?: string
    afterId: string
    limit: number
  }): Promise<LinkDestinations[]>
  /**
   * Flags a link (its visits get the warning page; announces link.flagged and link.updated) or
   * clears its flag (announces link.updated); false when nothing changed.
   */
  setFlag(organizationId: string, id: string, flag: SafetyMatch | null): Promise<boolean>
}

/** A destination host found on a safety list, and the list's name. */
export interface SafetyMatch {
  host: string
  list: string
}

/** What the safety re-check reads of a stored link. */
export interface LinkDestinations {
  id: string
  organizationId: string
  urls: string[]
  flag: SafetyMatch | null
}

/**
 * The safety lists as the links module asks them (the safety module, wired by the composition:
 * it depends on links, not the reverse).
 */
export interface DestinationGuard {
  /**
   * 400 DestinationBlocked naming every destination whose host or a parent domain is on one of
   * the organization's safety lists. Every destination of a create or update goes through this
   * one check (links, rules, smart-link targets, split variants).
   */
  assertDestinationsAllowed(organizationId: string, destinations: readonly Destination[]): Promise<void>
  /** The first of `urls` whose host is listed (the most specific listed host of it), or undefined. */
  firstMatch(organizationId: string, urls: readonly string[]): Promise<SafetyMatch | undefined>
}

/** Smart links (`/api/use/smart-links`): rows of the links table, never listed as links. */
export interface SmartLinkService {
  /** Creates a smart link (its short code shared with links: 409 when taken); announces link.created. */
  create(organizationId: string, body: CreateSmartLinkBody): Promise<SmartLink>
  /** A page of the organization's smart links, newest first (search, tag). */
  list(organizationId: string, q: ListSmartLinksQuery): Promise<PageOf<SmartLink>>
  /** One smart link; 404 otherwise (a plain link's id too). */
  get(organizationId: string, id: string): Promise<SmartLink>
  /** Edits a smart link (null clears a target); announces link.updated. */
  update(organizationId: string, id: string, body: UpdateSmartLinkBody): Promise<SmartLink>
  /** Deletes a smart link; announces link.deleted. */
  delete(organizationId: string, id: string): Promise<void>
}

export interface ClickDelta {
  linkId: string
  clicks: number
}

export interface LinkServiceDeps {
  store: LinkStore
  clock: Clock
  events: EventBus
  /** config.publicUrl without a trailing slash: shared-domain short URLs are `${publicUrl}/${code}`. */
  publicUrl: string
  /**
   * The service's own hosts besides custom domains (`host` or `host:port`): the shared short
   * domain and the public URL's host. Links never point at them. Default: the public URL's host.
   */
  ownHosts?: string[]
  /** Custom domains (absent: only the shared short domain exists). */
  domains?: Pick<DomainDirectory, 'forLink' | 'hostOf' | 'knowsHost' | 'organizationOfHost'>
  /** The daemon's own first path segments: never short codes. */
  reserved: ReservedCodes
  /** What else uses a short URL (absent: nothing but the link's own QR image). */
  shortUrlUse?: ShortUrlUse
  /** The safety lists every destination is checked against (absent: none). */
  destinationGuard?: DestinationGuard
}

/**
 * What reaches a link's short URL besides the link itself, asked before a PATCH changes it: the
 * qr-codes and clicks modules, through the composition (they depend on links, not the reverse).
 */
export interface ShortUrlUse {
  /** A link's or smart link's QR codes: how many, and the newest few. */
  qrCodes(
    organizationId: string,
    link: { id: string; kind: LinkKind },
  ): Promise<{ total: number; first: { id: string; title: string | null }[] }>
  /** The link's human clicks from `since` on. */
  clicksSince(linkId: string, since: number): Promise<number>
}

/** Validates one bulk item against CreateLinkBody; returns its problems, or nothing when valid. */
export type ItemValidator = (item: unknown) => ErrorDetail[] | undefined
