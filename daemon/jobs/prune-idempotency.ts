import type { Clock } from '../clock.js'
import type { IdempotencyStore } from '../http/idempotency-store.js'
import { IDEMPOTENCY_TTL_MS } from '../../src/contract/limits.js'
import type { JobDefinition } from './scheduler.js'
import { plural } from '../../src/contract/numbers.js'

/** Drops idempotency records past their 24 h life. */
export function pruneIdempotencyJob(store: IdempotencyStore, clock: Clock): JobDefinition {
  return {
    name: 'prune-idempotency',
    schedule: '17 * * * *',
    async run() {
      const n = await store.prune(clock.now() - IDEMPOTENCY_TTL_MS)
      return n ? `${plural(n, 'idempotency record')} pruned` : undefined
    },
  }
}
