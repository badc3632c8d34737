/** The gdpr module's interfaces, imported by its own files (other modules import its index.ts). */
import type { PageOf } from '../../../../src/contract/common.js'
import type { GdprDeletion, GdprDeletionBody, GdprDeletionsQuery } from '../../../../src/contract/gaming.js'

/** GDPR deletions of one player: irreversible, not cancellable, the record kept 365 days. */
export interface GdprService {
  /** Queues a deletion (the confirmation must be DELETE; 404 for a game of another organization). */
  request(organizationId: string, body: GdprDeletionBody): Promise<GdprDeletion>
  /** One deletion request of the organization (404 otherwise). */
  get(organizationId: string, id: string): Promise<GdprDeletion>
  /** The organization's deletion records (kept 365 days after completion), newest first, filtered. */
  list(organizationId: string, q: GdprDeletionsQuery): Promise<PageOf<GdprDeletion>>
  /** The job: purges queued players. Returns how many requests completed. */
  processQueue(): Promise<number>
  /** The job: deletion records past their 365 days; how many. */
  purgeExpiredRecords(): Promise<number>
}
