/**
 * Long read-only queries of a SQLite file (a funnel over a million players reads for seconds) run
 * in worker threads (read-worker.ts), each with its own read-only connection: the event loop keeps
 * serving redirects and ingestion meanwhile, and a query split in parts (by player) uses as many
 * cores as there are workers. Workers start on first use and end after a minute idle (their page
 * caches with them); they never keep a process alive. Jobs wait in a bounded queue (503 beyond).
 * Why: docs/decisions/retention-reads.md.
 */
import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'
import type { CompiledQuery } from 'kysely'
import { poolStats, queueFull, workerEntry, type PoolStats } from '../worker-pool.js'
import type { ReadJob, ReadReply, ReadWorkerData } from './read-worker.js'

export interface ReadPool {
  /** Workers at most (a query split in parts keeps them all busy). */
  readonly size: number
  /** The rows of a query, read by a worker. */
  all<R>(query: Pick<CompiledQuery, 'sql' | 'parameters'>): Promise<R[]>
  /** Queries a worker is reading, and queries waiting for one (read by the metrics). */
  stats(): PoolStats
  /** Ends every worker; queued and running queries fail (the daemon is shutting down). */
  close(): Promise<void>
}

export interface ReadPoolOptions {
  /** Workers at most (default: the processor cores, 1 to 4). */
  workers: number
  /** Queries waiting for a worker at most; one more is a 503. */
  queueMax: number
  /** Each worker's page cache, KiB (the daemon's connection's). */
  cacheKib: number
  /** A worker idle this long ends. */
  idleMs: number
}

const DEFAULTS: ReadPoolOptions = {
  workers: Math.max(1, Math.min(4, availableParallelism())),
  queueMax: 64,
  cacheKib: 32_768,
  idleMs: 60_000,
}

interface Pending {
  job: ReadJob
  settle(reply: ReadReply): void
}

interface Slot {
  worker: Worker
  job?: Pending
  idle?: NodeJS.Timeout
}

/** An error of a worker's query, as better-sqlite3 would have thrown it on the daemon's thread. */
class ReadError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message)
  }
}

export function createReadPool(path: string, options: Partial<ReadPoolOptions> = {}): ReadPool {
  const o = { ...DEFAULTS, ...options }
  const slots = new Set<Slot>()
  const queue: Pending[] = []
  let seq = 0
  let closed = false

  function spawn(): void {
    const workerData: ReadWorkerData = { path, cacheKib: o.cacheKib }
    const slot: Slot = { worker: new Worker(workerEntry('read-worker', import.meta.url), { workerData }) }
    slots.add(slot)
    slot.worker.on('message', (reply: ReadReply) => {
      const p = slot.job
      if (!p || reply.id !== p.job.id) return
      slot.job = undefined
      p.settle(reply)
      dispatch()
    })
    const lost = (message: string) => {
      if (!slots.delete(slot)) return
      clearTimeout(slot.idle)
      slot.job?.settle({ id: 0, ok: false, message, code: undefined })
      dispatch()
    }
    slot.worker.on('error', (err) => lost(`a database reader failed: ${err.message}`))
    slot.worker.on('exit', () => lost('a database reader stopped'))
  }

  function dispatch(): void {
    let idle = 0
    for (const slot of slots) if (!slot.job) idle++
    for (; queue.length > idle && slots.size < o.workers; idle++) spawn()
    for (const slot of slots) {
      if (slot.job) continue
      const p = queue.shift()
      if (!p) {
        slot.worker.unref()
        slot.idle ??= setTimeout(() => {
          slots.delete(slot)
          void slot.worker.terminate()
        }, o.idleMs).unref()
        continue
      }
      clearTimeout(slot.idle)
      slot.idle = undefined
      // A worker takes messages before it has started: they wait for its listener.
      slot.job = p
      slot.worker.ref()
      slot.worker.postMessage(p.job)
    }
  }

  return {
    size: o.workers,
    all<R>(query: Pick<CompiledQuery, 'sql' | 'parameters'>) {
      if (closed) return Promise.reject(new ReadError('the database is closed', undefined))
      if (queue.length >= o.queueMax) throw queueFull('database reader')
      return new Promise<R[]>((resolve, reject) => {
        const job: ReadJob = { id: ++seq, sql: query.sql, parameters: query.parameters }
        queue.push({
          job,
          settle: (r) => (r.ok ? resolve(r.rows as R[]) : reject(new ReadError(r.message, r.code))),
        })
        dispatch()
      })
    },
    stats: () => poolStats(slots, queue),
    async close() {
      closed = true
      const ending = [...slots]
      slots.clear()
      const down = { id: 0, ok: false, message: 'linkd is shutting down', code: undefined } as const
      for (const p of queue.splice(0)) p.settle(down)
      for (const slot of ending) {
        clearTimeout(slot.idle)
        slot.job?.settle(down)
        // An unreferenced worker's exit would not keep the process alive until it comes.
        slot.worker.ref()
      }
      await Promise.all(ending.map((slot) => slot.worker.terminate()))
    },
  }
}
