import type { Clock } from '../../clock.js'
import { utcDay, utcMonth } from '../../clock.js'
import { newId } from '../../crypto.js'
import { createBatcher } from '../../batcher.js'
import type { ActivityRecord, KeyStore, UsageDelta } from './store.js'

export interface RequestUsage {
  keyId: string
  organizationId: string
  endpoint: string
  method: string
  statusCode: number
  responseTimeMs: number
  ip: string | null
  userAgent: string | null
  referrer: string | null
  error: string | null
}

const MAX_BUFFER = 500
const FLUSH_MS = 1000

let seq = 0
/**
 * Activity ids sort like the requests arrived: time, then arrival order within one millisecond
 * (the log is read newest first by (ts, id); a random id would shuffle requests of the same ms).
 */
function activityId(ts: number): string {
  seq = (seq + 1) % 36 ** 4
  return `act_${ts.toString(36).padStart(9, '0')}${seq.toString(36).padStart(4, '0')}${newId('act').slice(4, 12)}`
}

/**
 * Buffers per-request activity and usage so that a request never waits on a write; flushed at
 * least every second, when the buffer fills, before any read of keys, and on shutdown.
 */
export function createUsageRecorder(deps: {
  store: KeyStore
  clock: Clock
  countryOf?: (ip: string) => string | null
}) {
  let reportError: (err: unknown) => void = () => {}

  function toDeltas(rows: ActivityRecord[]): UsageDelta[] {
    const byKeyDay = new Map<string, UsageDelta>()
    for (const a of rows) {
      const day = utcDay(a.ts)
      const id = `${a.keyId}|${day}`
      const d = byKeyDay.get(id)
      if (d) {
        d.count++
        if (a.ts >= d.lastUsedAt) {
          d.lastUsedAt = a.ts
          d.lastUsedIp = a.ip
        }
      } else
        byKeyDay.set(id, {
          keyId: a.keyId,
          day,
          month: utcMonth(a.ts),
          count: 1,
          lastUsedAt: a.ts,
          lastUsedIp: a.ip,
        })
    }
    return [...byKeyDay.values()].sort((x, y) => x.lastUsedAt - y.lastUsedAt)
  }

  const batch = createBatcher<ActivityRecord>({
    maxItems: MAX_BUFFER,
    intervalMs: FLUSH_MS,
    maxRetained: 10 * MAX_BUFFER,
    write: (rows) => deps.store.applyUsage(rows, toDeltas(rows)),
    onError: (err) => reportError(err),
  })

  return {
    record(u: RequestUsage): void {
      const ts = deps.clock.now()
      batch.push({
        ...u,
        id: activityId(ts),
        ts,
        country: u.ip && deps.countryOf ? deps.countryOf(u.ip) : null,
      })
    },
    flush: () => batch.flush(),
    start(onError: (err: unknown) => void): void {
      reportError = onError
      batch.start()
    },
    stop: () => batch.stop(),
    get pending(): number {
      return batch.pending
    },
  }
}
export type UsageRecorder = ReturnType<typeof createUsageRecorder>
