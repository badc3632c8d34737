import type { KeyService } from '../modules/keys/service.js'
import type { JobDefinition } from './scheduler.js'

/** Persists the expired transition of API keys whose expiry passed (requests are refused at once anyway). */
export function expireKeysJob(keys: KeyService): JobDefinition {
  return {
    name: 'expire-keys',
    schedule: '* * * * *',
    async run() {
      const n = await keys.expireDue()
      return n ? `${n} keys expired` : undefined
    },
  }
}
