/** The safety module's interfaces, imported by its own files (other modules import its index.ts). */
import type { Readable } from 'node:stream'
import type { PageOf, PageQuery } from '../../../src/contract/common.js'
import type { SafetyList, UploadSafetyListQuery } from '../../../src/contract/safety.js'
import type { Clock } from '../../clock.js'
import type { DestinationGuard, LinkService } from '../links/index.js'
import type { DomainService } from '../domains/index.js'
import type { SafetyStore } from './store.js'

/** What one re-check did. */
export interface RecheckResult {
  checked: number
  flagged: number
  unflagged: number
  /** Custom domains' root redirects flagged and cleared. */
  rootsFlagged: number
  rootsUnflagged: number
}

export interface SafetyService extends DestinationGuard {
  /**
   * Reads a feed file as it streams in and makes it the organization's list `name` (replacing the
   * list of that name, which keeps its id); then re-checks the organization's links in the
   * background. 400 when the file holds no host or more than the limit, 409 beyond the lists limit.
   */
  upload(organizationId: string, q: UploadSafetyListQuery, body: Readable): Promise<SafetyList>
  list(organizationId: string, q: PageQuery): Promise<PageOf<SafetyList>>
  get(organizationId: string, id: string): Promise<SafetyList>
  /** Removes a list (its hosts stop matching at once, and flags it set are cleared by a re-check). */
  delete(organizationId: string, id: string): Promise<void>
  /**
   * Checks stored links and custom domains' root redirects against the lists: flags those with a
   * listed destination, clears the flags no list holds any more; one organization's, or every
   * organization's (the daily job).
   */
  recheck(organizationId?: string): Promise<RecheckResult>
  /** Removes deleted and replaced lists' hosts, and abandoned uploads, in bounded chunks. */
  purge(): Promise<number>
  /** Resolves when the background re-checks started so far are done (tests, shutdown). */
  settled(): Promise<void>
}

export interface SafetyServiceDeps {
  store: SafetyStore
  clock: Clock
  links: Pick<LinkService, 'destinationsPage' | 'setFlag'>
  domains: Pick<DomainService, 'rootRedirects' | 'setRootRedirectFlag'>
  onError?: (err: unknown, what: string) => void
}
