/**
 * A read worker of read-pool.ts: its own read-only connection to the SQLite file, one query at a
 * time. The WAL lets it read what was committed while the daemon's connection writes.
 */
import { parentPort, workerData } from 'node:worker_threads'
import SQLite from 'better-sqlite3'

export interface ReadJob {
  id: number
  sql: string
  parameters: readonly unknown[]
}

export type ReadReply =
  | { id: number; ok: true; rows: unknown[] }
  | { id: number; ok: false; message: string; code: string | undefined }

export interface ReadWorkerData {
  path: string
  /** SQLite's page cache of this connection, in KiB. */
  cacheKib: number
}

const { path, cacheKib } = workerData as ReadWorkerData
const db = new SQLite(path, { readonly: true })
// A memory map of the file was measured no faster (the OS caches the pages either way).
db.pragma(`cache_size = -${cacheKib}`)

parentPort!.on('message', (job: ReadJob) => {
  let reply: ReadReply
  try {
    reply = { id: job.id, ok: true, rows: db.prepare(job.sql).all(...job.parameters) }
  } catch (err) {
    const e = err as Error & { code?: string }
    reply = { id: job.id, ok: false, message: e.message, code: e.code }
  }
  parentPort!.postMessage(reply)
})
