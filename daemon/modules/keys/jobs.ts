import type { KeyService } from './api.js'
import type { JobDefinition } from '../../jobs/scheduler.js'
import { plural } from '../../../src/contract/numbers.js'

/** Persists the expired transition of API keys whose expiry passed (requests are refused at once anyway). */
export function expireKeysJob(keys: KeyService): JobDefinition {
  return {
    name: 'expire-keys',
    schedule: '* * * * *',
    async run() {
      const n = await keys.expireDue()
      return n ? `${plural(n, 'key')} expired` : undefined
    },
  }
}

/** API key activity is kept this many days. */
export const KEY_ACTIVITY_RETENTION_DAYS = 90

export function pruneKeyActivityJob(keys: KeyService): JobDefinition {
  return {
    name: 'prune-key-activity',
    schedule: '40 3 * * *',
    async run() {
      const n = await keys.pruneActivity(KEY_ACTIVITY_RETENTION_DAYS)
      return n ? `${plural(n, 'activity row')} pruned` : undefined
    },
  }
}
