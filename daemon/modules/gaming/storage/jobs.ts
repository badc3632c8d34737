import type { StorageService } from './api.js'
import type { JobDefinition } from '../../../jobs/scheduler.js'

/** Raw events and sessions past each game's raw retention; the pruners' rows (batch ids past their 24 h). */
export function gamingRawRetentionJob(
  storage: Pick<StorageService, 'expireRaw' | 'pruneRaw'>,
): JobDefinition {
  return {
    name: 'gaming-raw-retention',
    schedule: '23 * * * *',
    leaseMs: 30 * 60_000,
    async run() {
      const { events, sessions, ...others } = await storage.expireRaw()
      const pruned = Object.entries(await storage.pruneRaw())
      const extra = Object.entries(others)
        .filter(([, n]) => n > 0)
        .map(([name, n]) => `, ${n} ${name}`)
        .join('')
      return events || sessions || extra || pruned.some(([, n]) => n > 0)
        ? `${events} events, ${sessions} sessions${extra} expired` +
            pruned.map(([name, n]) => `; ${n} ${name} pruned`).join('')
        : undefined
    },
  }
}

/** Daily aggregates past each game's compacted retention. */
export function gamingCompactionJob(storage: Pick<StorageService, 'compact'>): JobDefinition {
  return {
    name: 'gaming-compaction',
    schedule: '50 2 * * *',
    leaseMs: 30 * 60_000,
    async run() {
      const n = await storage.compact()
      return n ? `${n} aggregate rows past the compacted retention deleted` : undefined
    },
  }
}
