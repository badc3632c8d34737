/**
 * WAL checkpoints off the request path (SQLite only): a worker thread on its own connection runs
 * PASSIVE checkpoints, so no COMMIT pays for copying the log. It starts once the log passes
 * `startBytes`; until then (or if it stops) SQLite's automatic checkpoint stays on.
 */
import { statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import type SQLite from 'better-sqlite3'

export interface CheckpointerOptions {
  /** Log size that starts the worker (default 1 MB, a quarter of SQLite's automatic threshold). */
  startBytes?: number
  /** How often the worker checkpoints and the main thread checks the log before it starts. */
  intervalMs?: number
  /** Log file size kept after a checkpoint (journal_size_limit). */
  maxLogBytes?: number
  /** Called once if the worker fails (the main connection has its automatic checkpoint back). */
  onError?: (err: Error) => void
  /** The better-sqlite3 module the worker loads (default: the one linkd uses). */
  driver?: string
}

export interface Checkpointer {
  /** Whether the worker is running (and the main connection's automatic checkpoint is off). */
  readonly active: boolean
  /** Checkpoints the worker has run that copied at least one page. */
  readonly runs: number
  stop(): Promise<void>
}

/** SQLite's own default, restored whenever the worker is not running. */
const AUTO_CHECKPOINT_PAGES = 1000

// Plain CommonJS run by the worker (eval): the driver's path comes from the main thread, so it
// resolves the same better-sqlite3 whether linkd runs from the checkout, the bundle or a package.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads')
const SQLite = require(workerData.driver)
const db = new SQLite(workerData.path)
db.pragma('busy_timeout = 0')
parentPort.postMessage({ ready: true })
const timer = setInterval(() => {
  try {
    const [r] = db.pragma('wal_checkpoint(PASSIVE)')
    if (r && r.checkpointed > 0) parentPort.postMessage({ checkpointed: r.checkpointed })
  } catch (err) {
    parentPort.postMessage({ error: String(err && err.message || err) })
  }
}, workerData.intervalMs)
parentPort.on('message', () => {
  clearInterval(timer)
  try { db.pragma('wal_checkpoint(PASSIVE)') } catch {}
  db.close()
  parentPort.close()
})
`

export function startCheckpointer(sqlite: SQLite.Database, options: CheckpointerOptions = {}): Checkpointer {
  const path = sqlite.name
  const startBytes = options.startBytes ?? 1 << 20
  const intervalMs = options.intervalMs ?? 100
  sqlite.pragma(`journal_size_limit = ${options.maxLogBytes ?? 64 << 20}`)
  let worker: Worker | undefined
  let active = false
  let runs = 0
  let failed = false
  let stopped = false

  const fail = (err: Error) => {
    if (failed || stopped) return
    failed = true
    active = false
    if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`)
    void worker?.terminate()
    options.onError?.(err)
  }

  const start = () => {
    const driver = options.driver ?? createRequire(import.meta.url).resolve('better-sqlite3')
    worker = new Worker(WORKER, { eval: true, workerData: { driver, path, intervalMs } })
    worker.unref()
    worker.on('message', (m: { ready?: true; checkpointed?: number; error?: string }) => {
      if (m.ready && !stopped) {
        sqlite.pragma('wal_autocheckpoint = 0')
        active = true
      } else if (m.checkpointed) runs++
      else if (m.error) fail(new Error(`background checkpoint failed: ${m.error}`))
    })
    worker.on('error', fail)
    worker.on('exit', (code) => {
      if (!stopped) fail(new Error(`background checkpointer exited with code ${code}`))
    })
  }

  // Before the worker exists: a cheap size check of the log file.
  const probe = setInterval(() => {
    let size: number
    try {
      size = statSync(`${path}-wal`).size
    } catch {
      return
    }
    if (size >= startBytes) {
      clearInterval(probe)
      start()
    }
  }, intervalMs)
  probe.unref()

  return {
    get active() {
      return active
    },
    get runs() {
      return runs
    },
    async stop() {
      if (stopped) return
      stopped = true
      clearInterval(probe)
      active = false
      if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`)
      const w = worker
      if (!w || failed) return
      await new Promise<void>((resolve) => {
        w.once('exit', () => resolve())
        w.postMessage('stop')
        setTimeout(() => void w.terminate(), 2000).unref()
      })
    },
  }
}
