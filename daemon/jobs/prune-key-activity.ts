import type { KeyService } from '../modules/keys/service.js'
import type { JobDefinition } from './scheduler.js'

/** API key activity is kept this many days. */
export const KEY_ACTIVITY_RETENTION_DAYS = 90

export function pruneKeyActivityJob(keys: KeyService): JobDefinition {
  return {
    name: 'prune-key-activity',
    schedule: '40 3 * * *',
    async run() {
      const n = await keys.pruneActivity(KEY_ACTIVITY_RETENTION_DAYS)
      return n ? `${n} activity rows pruned` : undefined
    },
  }
}
