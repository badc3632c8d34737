/** A link as stored: the store's domain object, and its row in `links` both ways. */
import type { Insertable, Selectable, Updateable } from 'kysely'
import type { LinksTable } from '../../db/schema.js'
import type { LinkStatus } from '../../../src/contract/limits.js'
import type { LinkOg, LinkRule } from '../../../src/contract/links.js'
import type { LinkVariant } from '../../../src/contract/variants.js'
import { parseRules, parseVariants, storedRules, storedVariants } from './options.js'

/** A smart link's per-platform targets (each {url} or null: the fallback). */
export interface SmartTargets {
  ios: { url: string } | null
  android: { url: string } | null
  desktop: { url: string } | null
}
export type LinkKind = 'link' | 'smart'

/** A destination host found on a safety list after the link was written (the re-check). */
export interface LinkFlag {
  host: string
  /** The list's name. */
  list: string
  at: number
}

/** A link as stored: the store's domain object (status as stored, expiry not applied). */
export interface LinkRecord {
  id: string
  organizationId: string
  /** '' for the shared short domain, else the custom domain id. */
  domainKey: string
  customDomainId: string | null
  shortCode: string
  destinationUrl: string
  title: string | null
  status: LinkStatus
  redirectType: number
  tags: string[]
  metadata: Record<string, unknown>
  expiresAt: number | null
  clicks: number
  qrCreatedAt: number | null
  createdAt: number
  updatedAt: number
  expiredUrl: string | null
  maxClicks: number | null
  startsAt: number | null
  forwardQuery: boolean
  rules: LinkRule[]
  /** Human redirects taken against maxClicks (only links with maxClicks count them). */
  cappedClicks: number
  /** scrypt hash of the link's password (daemon/password.ts), null: none. */
  passwordHash: string | null
  og: LinkOg | null
  /** 'smart': a smart link (destinationUrl is its fallback, targets its platforms). */
  kind: LinkKind
  targets: SmartTargets | null
  appendClickId: boolean
  gameId: string | null
  /** Split destinations ([]: none); a smart link's split its fallback. */
  variants: LinkVariant[]
  /** Set by the safety re-check: the link answers a warning page instead of redirecting. */
  flag: LinkFlag | null
}

export interface LinkPatch {
  destinationUrl?: string
  title?: string | null
  status?: LinkStatus
  redirectType?: number
  tags?: string[]
  metadata?: Record<string, unknown>
  expiresAt?: number | null
  expiredUrl?: string | null
  maxClicks?: number | null
  startsAt?: number | null
  forwardQuery?: boolean
  rules?: LinkRule[]
  cappedClicks?: number
  passwordHash?: string | null
  og?: LinkOg | null
  targets?: SmartTargets
  appendClickId?: boolean
  gameId?: string | null
  variants?: LinkVariant[]
  /** A move (new short code and/or domain): all three together. */
  place?: { domainKey: string; customDomainId: string | null; shortCode: string }
  updatedAt: number
}

export function toRecord(r: Selectable<LinksTable>): LinkRecord {
  return {
    id: r.id,
    organizationId: r.organization_id,
    domainKey: r.domain_key,
    customDomainId: r.custom_domain_id,
    shortCode: r.short_code,
    destinationUrl: r.destination_url,
    title: r.title,
    status: r.status as LinkStatus,
    redirectType: Number(r.redirect_type),
    tags: JSON.parse(r.tags) as string[],
    metadata: JSON.parse(r.metadata) as Record<string, unknown>,
    expiresAt: r.expires_at === null ? null : Number(r.expires_at),
    clicks: Number(r.clicks),
    qrCreatedAt: r.qr_created_at === null ? null : Number(r.qr_created_at),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
    expiredUrl: r.expired_url ?? null,
    maxClicks: r.max_clicks === null || r.max_clicks === undefined ? null : Number(r.max_clicks),
    startsAt: r.starts_at === null || r.starts_at === undefined ? null : Number(r.starts_at),
    forwardQuery: r.forward_query === undefined ? true : Number(r.forward_query) === 1,
    rules: parseRules(r.rules ?? null),
    cappedClicks: Number(r.capped_clicks ?? 0),
    passwordHash: r.password_hash ?? null,
    og: r.og ? (JSON.parse(r.og) as LinkOg) : null,
    kind: r.kind === 'smart' ? 'smart' : 'link',
    targets: r.targets ? (JSON.parse(r.targets) as SmartTargets) : null,
    appendClickId: r.append_click_id === undefined ? true : Number(r.append_click_id) === 1,
    gameId: r.game_id ?? null,
    variants: parseVariants(r.variants ?? null),
    flag:
      r.flagged_host && r.flagged_list
        ? { host: r.flagged_host, list: r.flagged_list, at: Number(r.flagged_at ?? 0) }
        : null,
  }
}

/** The row of a new link (links). */
export function toRow(l: LinkRecord): Insertable<LinksTable> {
  return {
    id: l.id,
    organization_id: l.organizationId,
    domain_key: l.domainKey,
    custom_domain_id: l.customDomainId,
    short_code: l.shortCode,
    destination_url: l.destinationUrl,
    title: l.title,
    status: l.status,
    redirect_type: l.redirectType,
    tags: JSON.stringify(l.tags),
    metadata: JSON.stringify(l.metadata),
    expires_at: l.expiresAt,
    clicks: l.clicks,
    qr_created_at: l.qrCreatedAt,
    expired_url: l.expiredUrl,
    max_clicks: l.maxClicks,
    starts_at: l.startsAt,
    forward_query: l.forwardQuery ? 1 : 0,
    rules: storedRules(l.rules),
    capped_clicks: l.cappedClicks,
    password_hash: l.passwordHash,
    og: l.og === null ? null : JSON.stringify(l.og),
    kind: l.kind,
    targets: l.targets === null ? null : JSON.stringify(l.targets),
    append_click_id: l.appendClickId ? 1 : 0,
    game_id: l.gameId,
    variants: storedVariants(l.variants),
    flagged_host: l.flag?.host ?? null,
    flagged_list: l.flag?.list ?? null,
    flagged_at: l.flag?.at ?? null,
    created_at: l.createdAt,
    updated_at: l.updatedAt,
  }
}

/** The columns a patch sets (updated_at included). */
export function patchRow(p: LinkPatch): Updateable<LinksTable> {
  return {
    ...(p.destinationUrl !== undefined && { destination_url: p.destinationUrl }),
    ...(p.title !== undefined && { title: p.title }),
    ...(p.status !== undefined && { status: p.status }),
    ...(p.redirectType !== undefined && { redirect_type: p.redirectType }),
    ...(p.tags !== undefined && { tags: JSON.stringify(p.tags) }),
    ...(p.metadata !== undefined && { metadata: JSON.stringify(p.metadata) }),
    ...(p.expiresAt !== undefined && { expires_at: p.expiresAt }),
    ...(p.expiredUrl !== undefined && { expired_url: p.expiredUrl }),
    ...(p.maxClicks !== undefined && { max_clicks: p.maxClicks }),
    ...(p.startsAt !== undefined && { starts_at: p.startsAt }),
    ...(p.forwardQuery !== undefined && { forward_query: p.forwardQuery ? 1 : 0 }),
    ...(p.rules !== undefined && { rules: storedRules(p.rules) }),
    ...(p.cappedClicks !== undefined && { capped_clicks: p.cappedClicks }),
    ...(p.passwordHash !== undefined && { password_hash: p.passwordHash }),
    ...(p.og !== undefined && { og: p.og === null ? null : JSON.stringify(p.og) }),
    ...(p.targets !== undefined && { targets: JSON.stringify(p.targets) }),
    ...(p.appendClickId !== undefined && { append_click_id: p.appendClickId ? 1 : 0 }),
    ...(p.gameId !== undefined && { game_id: p.gameId }),
    ...(p.variants !== undefined && { variants: storedVariants(p.variants) }),
    ...(p.place !== undefined && {
      domain_key: p.place.domainKey,
      custom_domain_id: p.place.customDomainId,
      short_code: p.place.shortCode,
    }),
    updated_at: p.updatedAt,
  }
}
