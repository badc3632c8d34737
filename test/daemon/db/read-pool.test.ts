/**
 * The read workers (long reads of a SQLite file off the event loop): rows committed by the
 * daemon's connection come back, a query's error is SQLite's and the worker goes on, an idle
 * worker ends, the event loop runs while a worker reads, a full queue is a 503, and closing fails
 * what waits. The funnel's split into parts is checked in funnel-bruteforce.test.ts.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { openDatabase, type SqliteDb } from '../../../daemon/db/open.js'
import { createReadPool, type ReadPool } from '../../../daemon/db/read-pool.js'
import { AppError } from '../../../daemon/http/errors.js'

let dir: string
let db: SqliteDb
let pool: ReadPool | undefined

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'linkd-read-pool-'))
  const opened = openDatabase(`sqlite:${join(dir, 'x.db')}`)
  if (opened.dialect !== 'sqlite') throw new Error('SQLite only')
  db = opened
  db.sqlite.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT); INSERT INTO t VALUES (1, 'a'), (2, 'b')")
})
afterEach(async () => {
  await pool?.close()
  pool = undefined
  await db.close()
  rmSync(dir, { recursive: true, force: true })
})

/** A query that reads for about a second: counting to 3 million. */
const SLOW = {
  sql: 'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000000) SELECT COUNT(*) AS n FROM n',
  parameters: [],
}

describe('read workers', () => {
  it('read what the daemon’s connection committed, with bound parameters', async () => {
    pool = createReadPool(join(dir, 'x.db'), { workers: 2 })
    db.sqlite.prepare('INSERT INTO t VALUES (?, ?)').run(3, 'c')
    const rows = await pool.all({ sql: 'SELECT id, v FROM t WHERE id >= ? ORDER BY id', parameters: [2] })
    expect(rows).toEqual([
      { id: 2, v: 'b' },
      { id: 3, v: 'c' },
    ])
  })

  it('a query’s error is SQLite’s, and the worker reads the next one', async () => {
    pool = createReadPool(join(dir, 'x.db'), { workers: 1 })
    await expect(pool.all({ sql: 'SELECT nope FROM t', parameters: [] })).rejects.toMatchObject({
      message: 'no such column: nope',
      code: 'SQLITE_ERROR',
    })
    await expect(
      pool.all({ sql: 'INSERT INTO t VALUES (9, ?) RETURNING id', parameters: ['x'] }),
    ).rejects.toMatchObject({
      code: 'SQLITE_READONLY',
    })
    expect(await pool.all({ sql: 'SELECT COUNT(*) AS n FROM t', parameters: [] })).toEqual([{ n: 2 }])
  })

  it('a worker idle for idleMs ends (and its cache with it); the next query starts one', async () => {
    const threads = () => readdirSync('/proc/self/task').length
    const before = threads()
    pool = createReadPool(join(dir, 'x.db'), { workers: 1, idleMs: 100 })
    expect(await pool.all({ sql: 'SELECT COUNT(*) AS n FROM t', parameters: [] })).toEqual([{ n: 2 }])
    expect(threads()).toBeGreaterThan(before)
    await vi.waitFor(() => expect(threads()).toBe(before), { timeout: 5000, interval: 50 })
    expect(await pool.all({ sql: 'SELECT COUNT(*) AS n FROM t', parameters: [] })).toEqual([{ n: 2 }])
  })

  it('closing waits for idle workers to end, in a process nothing else keeps alive', () => {
    // Idle workers are unreferenced: closing once let the process exit before they ended, in the
    // middle of an awaited close (the daemon's shutdown, the benches).
    const pool = pathToFileURL(join(import.meta.dirname, '../../../daemon/db/read-pool.ts')).href
    const script = `import { createReadPool } from ${JSON.stringify(pool)}
      const pool = createReadPool(${JSON.stringify(join(dir, 'x.db'))}, { workers: 2 })
      const q = { sql: 'SELECT COUNT(*) AS n FROM t', parameters: [] }
      await Promise.all([pool.all(q), pool.all(q)])
      await pool.close()
      console.log('closed')`
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
    })
    expect(out.trim()).toBe('closed')
  })

  it('the event loop runs while a worker reads', async () => {
    pool = createReadPool(join(dir, 'x.db'), { workers: 1 })
    let ticks = 0
    let reading = true
    const tick = (): void => {
      ticks++
      if (reading) setTimeout(tick, 5)
    }
    setTimeout(tick, 5)
    const rows = await pool.all(SLOW)
    reading = false
    expect(rows).toEqual([{ n: 3_000_000 }])
    // On the event loop, the query would have held every timer until it ended.
    expect(ticks).toBeGreaterThan(3)
  })

  it('a query beyond the queue is a 503 with Retry-After; closing fails what waits', async () => {
    pool = createReadPool(join(dir, 'x.db'), { workers: 1, queueMax: 1 })
    const running = pool.all(SLOW)
    const queued = pool.all(SLOW)
    let refused: unknown
    try {
      void pool.all(SLOW)
    } catch (err) {
      refused = err
    }
    expect(refused).toBeInstanceOf(AppError)
    expect(refused).toMatchObject({ type: 'ServiceUnavailable', headers: { 'retry-after': '1' } })
    expect((refused as AppError).message).toMatch(/every database reader is busy/)
    const closing = pool.close()
    await expect(queued).rejects.toThrow('linkd is shutting down')
    await expect(running).rejects.toThrow(/stopped|shutting down/)
    await closing
    await expect(pool.all({ sql: 'SELECT 1', parameters: [] })).rejects.toThrow('the database is closed')
  })
})
