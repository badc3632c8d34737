import type { GdprService } from './api.js'
import type { JobDefinition } from '../../../jobs/scheduler.js'

/** Queued GDPR deletions, every minute. */
export function gdprDeletionsJob(gdpr: Pick<GdprService, 'processQueue'>): JobDefinition {
  return {
    name: 'gdpr-deletions',
    schedule: '* * * * *',
    async run() {
      const n = await gdpr.processQueue()
      return n ? `${n} GDPR deletions completed` : undefined
    },
  }
}

/** GDPR deletion records past their 365 days. */
export function gdprRecordsPurgeJob(gdpr: Pick<GdprService, 'purgeExpiredRecords'>): JobDefinition {
  return {
    name: 'gdpr-records-purge',
    schedule: '10 4 * * *',
    async run() {
      const n = await gdpr.purgeExpiredRecords()
      return n ? `${n} GDPR deletion records purged` : undefined
    },
  }
}
