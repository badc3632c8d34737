import type { ClicksService } from './api.js'
import type { JobDefinition } from '../../jobs/scheduler.js'
import { plural } from '../../../src/contract/numbers.js'

/** Rows one run may delete: a link with millions of clicks is finished over several runs. */
const BUDGET = 1_000_000

/**
 * Deleting a link removes it at once; its clicks, visitor hashes and counters go here, in small
 * transactions, so that a link with millions of clicks never stalls the daemon.
 */
export function purgeDeletedLinkClicksJob(clicks: Pick<ClicksService, 'purgeDeletedLinks'>): JobDefinition {
  return {
    name: 'purge-deleted-link-clicks',
    schedule: '17 * * * *',
    leaseMs: 30 * 60_000,
    async run() {
      const n = await clicks.purgeDeletedLinks(BUDGET)
      return n ? `${plural(n, 'click row')} of deleted links purged` : undefined
    },
  }
}
