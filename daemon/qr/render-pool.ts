/**
 * QR PNGs are drawn by a tiny pool of worker threads (render-worker.ts), never on the event loop:
 * a logo that takes long to draw (an SVG filter, a large PNG stored before the write-time bounds)
 * costs its worker, not the daemon's other requests. Drawing a logo has a time bound, in the
 * worker thread's processor time where Linux tells it (a loaded machine does not refuse honest
 * logos), else in wall time: past it the worker is ended (its WebAssembly too) and the request
 * gets a clear error; the next job starts a new worker. Jobs wait in a bounded queue (503 beyond). Workers are unreferenced while idle, so
 * they never keep a process alive. Why: docs/decisions/qr-rendering.md.
 */
import { readFileSync } from 'node:fs'
import { Worker } from 'node:worker_threads'
import { poolStats, queueFull, workerEntry, type PoolStats } from '../worker-pool.js'
import type { RenderJob, WorkerMessage } from './render-worker.js'

export interface RenderPoolOptions {
  /** Workers at most (each draws one job at a time). */
  workers: number
  /** Processor time drawing a logo may take before its worker is ended. */
  logoTimeoutMs: number
  /** Wall time drawing a logo may take whatever its processor time (and where that is unknown). */
  logoWallMs: number
  /** How long a whole job may take (a bound for what the logo bound does not cover). */
  jobTimeoutMs: number
  /** Jobs waiting for a worker at most; one more is a 503. */
  queueMax: number
}

export const RENDER_POOL_DEFAULTS: RenderPoolOptions = {
  workers: 2,
  logoTimeoutMs: 2000,
  logoWallMs: 30_000,
  jobTimeoutMs: 60_000,
  queueMax: 32,
}

/** A job's outcome: the PNG (null for a logo tried alone), or why not (a timeout, or a failure). */
export type RenderOutcome =
  | { ok: true; png: Buffer | null }
  | { ok: false; reason: 'timeout' | 'logo' | 'failed' | 'cancelled'; message: string }

export interface RenderPool {
  run(job: RenderJob): Promise<RenderOutcome>
  /**
   * Ends every worker; queued and running jobs end `cancelled` (the daemon is shutting down: a
   * render must not hold it). Later jobs start new workers.
   */
  cancel(): Promise<void>
  /** Jobs a worker is drawing, and jobs waiting for one (read by the metrics at scrape time). */
  stats(): RenderStats
}

export type RenderStats = PoolStats

interface Pending {
  id: number
  job: RenderJob
  done(outcome: RenderOutcome): void
}

interface Slot {
  worker: Worker
  ready: boolean
  /** The worker thread's Linux thread id, if known. */
  tid: string | null
  job?: Pending
  jobTimer?: NodeJS.Timeout
  logoTimer?: NodeJS.Timeout
}

/** Linux reports thread times in clock ticks of 1/100 s (USER_HZ). */
const TICK_MS = 10

/** Processor time (user + system) a thread of this process has used, in ms; undefined if unknown. */
function threadCpuMs(tid: string): number | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'latin1')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // Fields 14 and 15 of stat(5) (utime, stime), counted from the one after the command.
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS
  } catch {
    return undefined
  }
}

export function createRenderPool(options: Partial<RenderPoolOptions> = {}): RenderPool {
  const o = { ...RENDER_POOL_DEFAULTS, ...options }
  const slots = new Set<Slot>()
  const queue: Pending[] = []
  let seq = 0

  function spawn(): void {
    const worker = new Worker(workerEntry('render-worker', import.meta.url))
    const slot: Slot = { worker, ready: false, tid: null }
    slots.add(slot)
    worker.on('message', (m: WorkerMessage) => {
      if ('ready' in m) {
        slot.ready = true
        slot.tid = m.tid
        dispatch()
        return
      }
      const p = slot.job
      if (!p || m.id !== p.id) return
      if ('drawing' in m) {
        clearTimeout(slot.logoTimer)
        if (m.drawing) watchLogo(slot)
        return
      }
      clearTimeout(slot.jobTimer)
      clearTimeout(slot.logoTimer)
      slot.job = undefined
      p.done(
        m.ok
          ? { ok: true, png: m.png && Buffer.from(m.png.buffer, m.png.byteOffset, m.png.byteLength) }
          : { ok: false, reason: m.logo ? 'logo' : 'failed', message: m.message },
      )
      dispatch()
    })
    worker.on('error', (err) => retire(slot, { ok: false, reason: 'failed', message: err.message }))
    worker.on('exit', () => retire(slot, { ok: false, reason: 'failed', message: 'the QR renderer stopped' }))
  }

  /**
   * Ends the worker once drawing its logo has used `logoTimeoutMs` of its thread's processor time
   * (checked every 100 ms), or `logoWallMs` of wall time; with no processor time known, after
   * `logoTimeoutMs` of wall time.
   */
  function watchLogo(slot: Slot): void {
    const timeout = () =>
      retire(slot, {
        ok: false,
        reason: 'timeout',
        message: `could not be drawn within ${seconds(o.logoTimeoutMs)}`,
      })
    const start = slot.tid === null ? undefined : threadCpuMs(slot.tid)
    if (start === undefined) {
      slot.logoTimer = setTimeout(timeout, o.logoTimeoutMs)
      return
    }
    const until = performance.now() + o.logoWallMs
    const check = () => {
      const used = threadCpuMs(slot.tid!)
      if (used === undefined || used - start >= o.logoTimeoutMs || performance.now() >= until) timeout()
      else slot.logoTimer = setTimeout(check, Math.min(100, o.logoTimeoutMs))
    }
    slot.logoTimer = setTimeout(check, Math.min(100, o.logoTimeoutMs))
  }

  /** Ends a worker; its job (if any) gets `outcome`. */
  function retire(slot: Slot, outcome: RenderOutcome & { ok: false }): void {
    if (!slots.delete(slot)) return
    clearTimeout(slot.jobTimer)
    clearTimeout(slot.logoTimer)
    void slot.worker.terminate()
    slot.job?.done(outcome)
    dispatch()
  }

  function dispatch(): void {
    for (const slot of slots) {
      if (!slot.ready || slot.job) continue
      const p = queue.shift()
      if (!p) {
        slot.worker.unref()
        continue
      }
      slot.job = p
      slot.worker.ref()
      slot.jobTimer = setTimeout(
        () =>
          retire(slot, {
            ok: false,
            reason: 'timeout',
            message: `could not be drawn within ${seconds(o.jobTimeoutMs)}`,
          }),
        o.jobTimeoutMs,
      )
      slot.worker.postMessage({ id: p.id, job: p.job })
    }
    const starting = [...slots].filter((s) => !s.ready).length
    for (let n = Math.min(queue.length - starting, o.workers - slots.size); n > 0; n--) spawn()
  }

  return {
    run(job) {
      if (queue.length >= o.queueMax) throw queueFull('QR renderer')
      return new Promise((done) => {
        queue.push({ id: ++seq, job, done })
        dispatch()
      })
    },
    stats: () => poolStats(slots, queue),
    async cancel() {
      const cancelled = { ok: false, reason: 'cancelled', message: 'linkd is shutting down' } as const
      for (const p of queue.splice(0)) p.done(cancelled)
      const workers = [...slots].map((slot) => slot.worker)
      for (const slot of [...slots]) retire(slot, cancelled)
      await Promise.all(workers.map((w) => w.terminate()))
    },
  }
}

const seconds = (ms: number) => `${ms / 1000} s`

let shared: RenderPool | undefined

/** The process's pool, started on the first PNG (the daemon does not need it to start). */
export function renderPool(): RenderPool {
  shared ??= createRenderPool()
  return shared
}

/** The process's pool's renders, without starting it. */
export const renderStats = (): RenderStats => shared?.stats() ?? { running: 0, queued: 0 }
