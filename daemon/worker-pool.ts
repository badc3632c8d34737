/**
 * What the daemon's pools of worker threads (QR renders, SQLite reads) share: where a worker
 * starts, the counts the metrics read, and the 503 of a full queue.
 */
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { AppError } from './http/errors.js'

/**
 * The URL a worker thread starts from: `file` (a worker module's name, `render-worker`) beside the
 * module starting it (`here`, its import.meta.url), as tsc emits both (`dist/daemon/…`) or as the
 * daemon's bundle ships it (an entry of its own beside main.js, `here` then being main.js's); from
 * the TypeScript sources (vitest), through tsx.
 */
export function workerEntry(file: string, here: string): URL {
  if (!here.endsWith('.ts')) return new URL(`./${file}.js`, here)
  const tsx = pathToFileURL(join(dirname(createRequire(here).resolve('tsx/esm/api')), 'index.mjs')).href
  const entry = new URL(`./${file}.ts`, here).href
  const boot = `import { register } from ${JSON.stringify(tsx)}; register(); await import(${JSON.stringify(entry)})`
  return new URL(`data:text/javascript,${encodeURIComponent(boot)}`)
}

/** Jobs a worker is on, and jobs waiting for one (read by the metrics at scrape time). */
export interface PoolStats {
  running: number
  queued: number
}

export function poolStats(slots: Iterable<{ job?: unknown }>, queue: readonly unknown[]): PoolStats {
  let running = 0
  for (const slot of slots) if (slot.job) running++
  return { running, queued: queue.length }
}

/** A job beyond a pool's bounded queue: a 503 to retry a moment later. */
export function queueFull(workers: string): AppError {
  return new AppError(
    'ServiceUnavailable',
    `every ${workers} is busy and the queue is full; retry in a moment`,
    undefined,
    { 'retry-after': '1' },
  )
}
