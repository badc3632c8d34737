import type { FraudService } from './api.js'
import type { JobDefinition } from '../../../jobs/scheduler.js'

/** Blocklist entries past their 30 days (the pipeline already ignores them from expiresAt on). */
export function fraudBlocklistExpiryJob(fraud: Pick<FraudService, 'expireBlocklist'>): JobDefinition {
  return {
    name: 'fraud-blocklist-expiry',
    schedule: '7 * * * *',
    async run() {
      const n = await fraud.expireBlocklist()
      return n ? `${n} blocklist entries expired` : undefined
    },
  }
}
