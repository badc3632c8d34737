/** The domains module's interfaces, imported by its own files (other modules import its index.ts). */
import type { SecureContext } from 'node:tls'
import type { FastifyReply } from 'fastify'
import type { PageOf } from '../../../src/contract/common.js'
import type {
  AddDomainBody,
  AppLinks,
  Domain,
  DomainStats,
  ListDomainsQuery,
  Propagation,
  SslDetails,
  UpdateDomainBody,
} from '../../../src/contract/domains.js'
import type { DomainRecord } from './records.js'

export interface DomainService {
  /**
   * Adds a domain (pending verification) within the plan's limit; announces domain.created. A host
   * another organization holds is 409, unless its claim is unverified and this organization's
   * claim token is in the TXT challenge record: that claim is then deleted (domain.deleted).
   */
  add(organizationId: string, body: AddDomainBody): Promise<Domain>
  /** A page of the organization's domains. */
  list(organizationId: string, q: ListDomainsQuery): Promise<PageOf<Domain>>
  /** Counts of the organization's domains and their links' clicks. */
  stats(organizationId: string): Promise<DomainStats>
  /** One domain; 404 otherwise. */
  get(organizationId: string, id: string): Promise<Domain>
  /** Checks the DNS records now: verified (certificate ordered), failed, or still pending. */
  verify(organizationId: string, id: string): Promise<Domain>
  /** The DNS records as each resolver sees them, stored as the domain's last check. */
  checkPropagation(organizationId: string, id: string): Promise<Propagation>
  /** The domain's certificate: status, issuer, validity, next renewal. */
  ssl(organizationId: string, id: string): Promise<SslDetails>
  /** Makes a verified domain the organization's default for new links. */
  setDefault(organizationId: string, id: string): Promise<Domain>
  /** Sets the default flag and the root redirect URL (a new one, or none, clears its safety flag). */
  update(organizationId: string, id: string, body: UpdateDomainBody): Promise<Domain>
  /** The domain's app links (both null when none are set); 404 for another organization's domain. */
  appLinks(organizationId: string, id: string): Promise<AppLinks>
  /** Replaces the domain's app links (fingerprints stored upper case); the files change at once. */
  setAppLinks(organizationId: string, id: string, body: AppLinks): Promise<AppLinks>
  /** Deletes a non-default domain, moving its links to the shared domain; announces domain.deleted. */
  delete(organizationId: string, id: string): Promise<void>
  /** Job: re-checks pending domains (failing those past 48 h) and re-orders stalled certificates. */
  recheckPending(): Promise<{ verified: number; failed: number }>
  /** Job: deletes domains still unverified 7 days after they were added; how many. */
  expireClaims(): Promise<number>
  /** Job: renews certificates within 30 days of expiry. */
  renewDue(): Promise<{ renewed: number; failed: number }>
  /** The domains with a root redirect, and its safety flag: one organization's, or all (the re-check). */
  rootRedirects(organizationId?: string): Promise<RootRedirect[]>
  /**
   * Flags a root redirect whose host a safety list holds (`/` then answers the warning page), or
   * clears its flag (the caller sets only a flag that differs); false when the URL changed meanwhile.
   */
  setRootRedirectFlag(root: RootRedirect, flag: { host: string; list: string } | null): Promise<boolean>
  /** Resolves when no certificate order is running (tests, shutdown). */
  settled(): Promise<void>
  /** Metrics: every certificate's domain and expiry (Unix ms), across organizations. */
  certificateExpiries(): Promise<Array<{ domain: string; expiresAt: number }>>
  /** The HTTP-01 answer for a token (served at /.well-known/acme-challenge/:token). */
  challengeResponse(token: string): Promise<string | undefined>
}

/** A domain's root redirect as the safety re-check reads it. */
export interface RootRedirect {
  id: string
  organizationId: string
  url: string
  flag: { host: string; list: string } | null
}

/** Where `/` of a verified custom domain goes: its root redirect, or the warning page when flagged. */
export interface RootOfHost {
  url: string
  flag: { host: string; list: string } | null
}

/**
 * Sends the warning page of a flagged root redirect (the links' page, which the redirect module
 * renders; the composition passes it in). `url`: the address visited; `head`: no body.
 */
export type FlaggedRootPage = (
  reply: FastifyReply,
  url: string,
  flag: { host: string; list: string },
  head: boolean,
) => FastifyReply

/** The in-memory view of custom domains the hot paths read without a query; reloaded after changes. */
export interface DomainDirectory {
  /** Reloads every domain; TLS contexts are rebuilt only for certificates that changed. */
  refresh(): Promise<void>
  /** Host of a domain id (links keep their domain id as domain key). */
  hostOf(id: string): string | undefined
  /** Whether a host is a custom domain known to linkd, whatever its status (links never point at one). */
  knowsHost(host: string): boolean
  /** The domain key (id) of a verified custom domain named by a request's host; else undefined. */
  keyOfHost(host: string): string | undefined
  /** The organization of a verified custom domain named by a request's host; else undefined. */
  organizationOfHost(host: string): string | undefined
  /** Whether plain HTTP requests to this host go to HTTPS (a certificate is served). */
  httpsOnly(host: string): boolean
  /** Where the root (`/`) of a verified custom domain redirects, and its safety flag, if set. */
  rootRedirectOf(host: string): RootOfHost | undefined
  /** The body of an app-link file (`/.well-known/…`) a verified custom domain serves, if set. */
  appLinkFile(host: string, path: string): Buffer | undefined
  /** TLS context of a host for SNI (only domains with an active certificate). */
  context(servername: string): SecureContext | undefined
  /** The domain a new link goes on: the verified one named (else 422), the default, or undefined (shared). */
  forLink(
    organizationId: string,
    ref: { customDomainId?: string | null | undefined; domain?: string | undefined },
  ): Promise<DomainRecord | undefined>
}
