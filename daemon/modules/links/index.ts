/** Short links, their codes, bulk creation and QR codes; owns `links` and `link_tags`. */
export { createLinkStore } from './store.js'
export { createLinkService, qrCodeIdOf, type ClickDelta, type ShortUrlUse } from './service.js'
export { type ItemValidator } from './bulk.js'
export { type ResolvedLink } from './present.js'
export { createSmartLinkService } from './smart-links.js'
export { SHARED_DOMAIN_KEY, createReservedCodes, type ReservedCodes } from './rules.js'
export { type QrImage } from '../../qr/index.js'
import type { PageOf } from '../../../src/contract/common.js'
import type {
  BulkCreateResult,
  CreateLinkBody,
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
import type { UnitOfWork } from '../../db/unit-of-work.js'
import type { Module } from '../module.js'
import { expireLinksJob } from './jobs.js'
import type { QrImage } from '../../qr/index.js'
import { linkRoutes } from './routes.js'
import { linkQrRoutes } from './qr-routes.js'
import { smartLinkRoutes } from './smart-routes.js'
import type { LinkKind } from './records.js'
import type { ClickDelta } from './service.js'
import type { ItemValidator } from './bulk.js'
import type { ResolvedLink } from './present.js'
import type { ReservedCodes } from './rules.js'

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
  owned(organizationId: string, id: string): Promise<{ id: string; kind: LinkKind; shortUrl: string }>
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
  /** Moves a deleted custom domain's links to the shared domain (renaming clashes); returns how many. */
  detachDomain(domainId: string): Promise<number>
  /** Job: persists 'expired' for links past their expiry; returns how many. */
  expireDue(): Promise<number>
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

export function linksModule(deps: {
  links: LinkService
  smartLinks: SmartLinkService
  bodyLimitBytes: number
  /** Filled here from the route table: every route's first path segment is reserved. */
  reserved: ReservedCodes
}): Module {
  const links = linkRoutes(deps)
  const qr = linkQrRoutes(deps)
  const smart = smartLinkRoutes(deps)
  return {
    name: 'links',
    hooks(app) {
      // Module hooks are installed before any route registers, so every route is seen.
      app.addHook('onRoute', (route) => deps.reserved.addRoute(route.url))
    },
    routes: async (app) => {
      await links(app)
      await qr(app)
      await smart(app)
    },
    jobs: [expireLinksJob(deps.links)],
  }
}
