import type { Clock } from '../../clock.js'
import { utcDay, utcMonth } from '../../clock.js'
import { newId } from '../../crypto.js'
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
  let buffer: ActivityRecord[] = []
  let timer: NodeJS.Timeout | undefined
  let flushing: Promise<void> = Promise.resolve()

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

  function flush(): Promise<void> {
    flushing = flushing
      .catch(() => {})
      .then(async () => {
        if (buffer.length === 0) return
        const rows = buffer
        buffer = []
        try {
          await deps.store.applyUsage(rows, toDeltas(rows))
        } catch (err) {
          buffer = rows.concat(buffer).slice(-10 * MAX_BUFFER) // keep for the next try, bounded
          throw err
        }
      })
    return flushing
  }

  return {
    record(u: RequestUsage): void {
      const ts = deps.clock.now()
      buffer.push({
        ...u,
        id: activityId(ts),
        ts,
        country: u.ip && deps.countryOf ? deps.countryOf(u.ip) : null,
      })
      if (buffer.length >= MAX_BUFFER) void flush().catch(() => {})
    },
    flush,
    start(onError: (err: unknown) => void): void {
      timer ??= setInterval(() => void flush().catch(onError), FLUSH_MS)
      timer.unref()
    },
    async stop(): Promise<void> {
      if (timer) clearInterval(timer)
      timer = undefined
      await flush()
    },
    get pending(): number {
      return buffer.length
    },
  }
}
