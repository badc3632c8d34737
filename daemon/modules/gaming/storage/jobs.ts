import type { IngestService } from '../ingest/index.js'
import type { GamedataService } from './index.js'
import type { JobDefinition } from '../../../jobs/scheduler.js'

/** Raw events and sessions past each game's raw retention; batch ids past their 24 h. */
export function gamingRawRetentionJob(
  gamedata: Pick<GamedataService, 'expireRaw'>,
  ingest: Pick<IngestService, 'pruneBatches'>,
): JobDefinition {
  return {
    name: 'gaming-raw-retention',
    schedule: '23 * * * *',
    leaseMs: 30 * 60_000,
    async run() {
      const { events, sessions, ...others } = await gamedata.expireRaw()
      const b = await ingest.pruneBatches()
      const extra = Object.entries(others)
        .filter(([, n]) => n > 0)
        .map(([name, n]) => `, ${n} ${name}`)
        .join('')
      return events || sessions || extra || b
        ? `${events} events, ${sessions} sessions${extra} expired; ${b} batch ids pruned`
        : undefined
    },
  }
}

/** Daily aggregates past each game's compacted retention. */
export function gamingCompactionJob(gamedata: Pick<GamedataService, 'compact'>): JobDefinition {
  return {
    name: 'gaming-compaction',
    schedule: '50 2 * * *',
    leaseMs: 30 * 60_000,
    async run() {
      const n = await gamedata.compact()
      return n ? `${n} aggregate rows past the compacted retention deleted` : undefined
    },
  }
}
