/**
 * WAL checkpoints off the request path: once the log grows, a worker thread on
 * its own connection checkpoints it and the main connection's commits stop checkpointing; if the
 * worker fails, the main connection checkpoints on commit again. Real SQLite files, a real worker.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startCheckpointer, type Checkpointer } from '../../../daemon/db/checkpointer.js'
import { openDatabase, type Db } from '../../../daemon/db/open.js'

let dir = ''
let db: Db
let ckpt: Checkpointer | undefined
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'linkd-ckpt-'))
  db = openDatabase(`sqlite:${join(dir, 'x.db')}`)
  db.sqlite.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)')
})
afterEach(async () => {
  await ckpt?.stop()
  ckpt = undefined
  await db.close()
  rmSync(dir, { recursive: true, force: true })
})

const insert = (n: number) => {
  const ins = db.sqlite.prepare('INSERT INTO t (v) VALUES (?)')
  db.sqlite.transaction(() => {
    for (let i = 0; i < n; i++) ins.run('x'.repeat(500))
  })()
}
const autoCheckpoint = () => Number(db.sqlite.pragma('wal_autocheckpoint', { simple: true }))
const until = async (what: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 20))
  }
}
/** [frames in the log, frames already copied into the database] without copying any. */
const logState = () => {
  const [r] = db.sqlite.pragma('wal_checkpoint(PASSIVE)') as Array<{ log: number; checkpointed: number }>
  return r!
}

describe('background checkpointer', () => {
  it('stays asleep while the log is small; SQLite keeps its automatic checkpoint', async () => {
    ckpt = startCheckpointer(db.sqlite, { startBytes: 4 << 20, intervalMs: 10 })
    insert(10)
    await new Promise((r) => setTimeout(r, 100))
    expect(ckpt.active).toBe(false)
    expect(autoCheckpoint()).toBe(1000)
  })

  it('takes over once the log grows: commits stop checkpointing, the worker copies the log', async () => {
    ckpt = startCheckpointer(db.sqlite, { startBytes: 256 << 10, intervalMs: 10 })
    insert(2000) // ~1 MB of log
    await until(() => ckpt!.active)
    expect(autoCheckpoint()).toBe(0)
    const before = ckpt.runs
    for (let i = 0; i < 10; i++) insert(2000)
    // Nothing on this connection checkpointed (automatic checkpoints are off), yet the worker
    // has copied every frame of the log into the database file.
    await until(() => ckpt!.runs > before && logState().checkpointed === logState().log)
    expect(db.sqlite.prepare('SELECT COUNT(*) AS n FROM t').get()).toEqual({ n: 22_000 })
    await ckpt.stop()
    expect(ckpt.active).toBe(false)
    expect(autoCheckpoint()).toBe(1000)
  })

  it('the log file is truncated to the size limit after a checkpoint', async () => {
    ckpt = startCheckpointer(db.sqlite, { startBytes: 256 << 10, intervalMs: 10, maxLogBytes: 512 << 10 })
    insert(2000)
    await until(() => ckpt!.active)
    insert(2000) // ~1 MB of frames: the log file is now larger than the limit
    expect(statSync(join(dir, 'x.db-wal')).size).toBeGreaterThan(512 << 10)
    // The first write after a complete checkpoint restarts the log and applies the limit (a
    // write racing the worker's checkpoint appends instead, hence the small writes in the loop).
    await until(() => {
      insert(1)
      return statSync(join(dir, 'x.db-wal')).size <= 512 << 10
    })
  })

  it('a worker that fails hands checkpoints back to SQLite and says so once', async () => {
    const errors: Error[] = []
    ckpt = startCheckpointer(db.sqlite, {
      startBytes: 256 << 10,
      intervalMs: 10,
      driver: join(dir, 'no-such-driver.js'),
      onError: (err) => errors.push(err),
    })
    insert(2000)
    await until(() => errors.length > 0)
    expect(ckpt.active).toBe(false)
    expect(autoCheckpoint()).toBe(1000)
    expect(errors).toHaveLength(1)
    // The database keeps working, with SQLite's own checkpoints.
    insert(3000)
    expect(logState().log).toBeLessThan(3000)
  })
})
