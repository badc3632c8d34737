import { TEAM_LIMITS } from '../../../src/contract/limits.js'
import type { JobDefinition } from '../../jobs/scheduler.js'
import type { AuditService } from './api.js'
import { plural } from '../../../src/contract/numbers.js'

/** Drops audit entries older than the retention (365 days). */
export function pruneAuditLogJob(audit: Pick<AuditService, 'prune'>): JobDefinition {
  return {
    name: 'prune-audit-log',
    schedule: '55 3 * * *',
    async run() {
      const n = await audit.prune(TEAM_LIMITS.auditRetentionDays)
      return n ? `${plural(n, 'audit entry', 'audit entries')} pruned` : undefined
    },
  }
}
