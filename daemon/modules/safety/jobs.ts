import type { JobDefinition } from '../../jobs/scheduler.js'
import { plural } from '../../../src/contract/numbers.js'
import type { SafetyService } from './api.js'

export const RECHECK_SAFETY_JOB = 'recheck-safety-lists'

/**
 * Daily: every link and domain root redirect checked against its organization's safety lists (a host listed since, or no
 * longer), and the hosts of deleted or replaced lists removed.
 */
export function recheckSafetyJob(safety: Pick<SafetyService, 'recheck' | 'purge'>): JobDefinition {
  return {
    name: RECHECK_SAFETY_JOB,
    schedule: '17 3 * * *',
    leaseMs: 60 * 60_000,
    async run() {
      const r = await safety.recheck()
      const purged = await safety.purge()
      const parts = [
        ...(r.flagged ? [`${plural(r.flagged, 'link')} flagged`] : []),
        ...(r.unflagged ? [`${plural(r.unflagged, 'link')} cleared`] : []),
        ...(r.rootsFlagged ? [`${plural(r.rootsFlagged, 'domain root')} flagged`] : []),
        ...(r.rootsUnflagged ? [`${plural(r.rootsUnflagged, 'domain root')} cleared`] : []),
        ...(purged ? [`${plural(purged, 'listed host')} removed`] : []),
      ]
      return parts.length ? parts.join(', ') : undefined
    },
  }
}
