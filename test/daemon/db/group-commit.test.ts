/**
 * SQLite's group commit (daemon/db/group-commit.ts, sqlite-group-engine.ts): units that arrive
 * while a group is written wait and share the next transaction, each in its own savepoint; none is
 * settled before its group is durable. On a real database file in WAL mode, as linkd runs it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import type { Kysely } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createGroupCommitter, type GroupLimits, type GroupReport } from '../../../daemon/db/group-commit.js'
import { sqliteGroupEngine, walSync } from '../../../daemon/db/sqlite-group-engine.js'
import { createTurns } from '../../../daemon/turns.js'
import { openDatabase, type SqliteDb } from '../../../daemon/db/open.js'

let dir: string
let db: SqliteDb
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'linkd-group-commit-'))
  db = openDatabase(`sqlite:${join(dir, 'g.db')}`) as SqliteDb
  db.sqlite.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)')
})
afterEach(async () => {
  await db.close()
  rmSync(dir, { recursive: true, force: true })
})

const LIMITS = { maxEvents: 1_000, maxBytes: 1_000_000 }
const insert = (id: number) => db.sqlite.prepare('INSERT INTO t (id, v) VALUES (?, ?)').run(id, `v${id}`)
const ids = () => db.sqlite.prepare('SELECT id FROM t ORDER BY id').pluck().all() as number[]
/** What another connection sees: committed rows only. */
const committedIds = () => {
  const other = new SQLite(join(dir, 'g.db'), { readonly: true })
  try {
    return other.prepare('SELECT id FROM t ORDER BY id').pluck().all() as number[]
  } finally {
    other.close()
  }
}
const one = { events: 1, bytes: 10 }

function committer(
  options: {
    limits?: GroupLimits
    sync?: () => Promise<void>
    flush?: (unit: null, deferred: number[]) => Promise<void>
    yieldTo?: (first?: boolean) => Promise<void>
  } = {},
) {
  const groups: GroupReport[] = []
  const engine = sqliteGroupEngine(db.kysely as Kysely<unknown>, db.sqlite, null, options.sync)
  const c = createGroupCommitter<null, number>(engine, {
    limits: options.limits ?? LIMITS,
    onGroup: (g) => groups.push(g),
    ...(options.flush ? { flush: options.flush } : {}),
    ...(options.yieldTo ? { yieldTo: options.yieldTo } : {}),
  })
  return { c, groups }
}

/** A promise and what settles it. */
function gate() {
  let open!: () => void
  let fail!: (err: Error) => void
  const promise = new Promise<void>((resolve, reject) => {
    open = resolve
    fail = reject
  })
  return { promise, open, fail }
}

const tick = () => new Promise<void>((r) => setImmediate(r))

describe('group commit', () => {
  it('units that arrive while a group is written share the next transaction', async () => {
    const { c, groups } = committer()
    const held = gate()
    const first = c.run(async () => {
      insert(1)
      await held.promise // the first group stays open while the others arrive
      return 'first'
    }, one)
    await tick()
    const rest = [2, 3, 4].map((id) =>
      c.run(async () => {
        insert(id)
        return id
      }, one),
    )
    expect(c.waitingEvents).toBe(3)
    held.open()
    expect(await Promise.all([first, ...rest])).toEqual(['first', 2, 3, 4])
    expect(groups.map((g) => g.units)).toEqual([1, 3])
    expect(committedIds()).toEqual([1, 2, 3, 4])
    expect(c.waitingEvents).toBe(0)
  })

  it('a unit that throws is rolled back alone; the others of its group are stored', async () => {
    const { c, groups } = committer()
    const held = gate()
    const first = c.run(async () => void (await held.promise), one)
    await tick()
    const results = Promise.allSettled([
      c.run(async () => insert(10), one),
      c.run(async () => {
        insert(11)
        insert(10) // a constraint violation after a write of its own
      }, one),
      c.run(async () => insert(12), one),
    ])
    held.open()
    await first
    const [a, b, d] = await results
    expect(a.status).toBe('fulfilled')
    expect(b.status).toBe('rejected')
    expect(String((b as PromiseRejectedResult).reason)).toMatch(/UNIQUE/)
    expect(d.status).toBe('fulfilled')
    expect(committedIds()).toEqual([10, 12])
    // Its group was rolled back; the two others were written again, without it.
    expect(groups.at(-1)).toMatchObject({ units: 2, failed: 0 })
  })

  it('in the group written again, a second unit that throws is rolled back alone (savepoints)', async () => {
    const { c, groups } = committer()
    const held = gate()
    const first = c.run(async () => void (await held.promise), one)
    await tick()
    const runs = new Map<number, number>()
    const unit = (id: number, fails = false) =>
      c.run(async () => {
        runs.set(id, (runs.get(id) ?? 0) + 1)
        insert(id)
        if (fails) throw new Error(`unit ${id} fails`)
      }, one)
    const results = Promise.allSettled([unit(40), unit(41, true), unit(42), unit(43, true), unit(44)])
    held.open()
    await first
    expect((await results).map((r) => r.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'rejected',
      'fulfilled',
    ])
    expect(committedIds()).toEqual([40, 42, 44])
    // 41 ended the first try (40 is written again); 43 is contained by its savepoint in the second.
    expect(groups.at(-1)).toMatchObject({ units: 4, failed: 1 })
    expect(Object.fromEntries(runs)).toEqual({ 40: 2, 41: 1, 42: 1, 43: 1, 44: 1 })
  })

  it('settles no unit before its group is durable; a failed sync fails the group', async () => {
    const syncs: Array<ReturnType<typeof gate>> = []
    const { c } = committer({
      sync: () => {
        const g = gate()
        syncs.push(g)
        return g.promise
      },
    })
    let settled = false
    const unit = c.run(async () => insert(1), one).finally(() => (settled = true))
    while (syncs.length === 0) await tick()
    // Committed (another connection sees it) but not yet durable: not answered.
    expect(committedIds()).toEqual([1])
    await tick()
    expect(settled).toBe(false)
    syncs[0]!.open()
    await unit
    expect(settled).toBe(true)

    const lost = c.run(async () => insert(2), one)
    while (syncs.length === 1) await tick()
    syncs[1]!.fail(new Error('EIO: the sync failed'))
    await expect(lost).rejects.toThrow('EIO')
  })

  it('bounds a group by events and bytes; a unit over the bound is a group of its own', async () => {
    const { c, groups } = committer({ limits: { maxEvents: 10, maxBytes: 1_000 } })
    const held = gate()
    const first = c.run(async () => void (await held.promise), one)
    await tick()
    const weights = [4, 4, 4, 25, 1, { events: 1, bytes: 999 }, 1]
    const runs = weights.map((w, i) =>
      c.run(async () => insert(i), typeof w === 'number' ? { events: w, bytes: 1 } : w),
    )
    held.open()
    await Promise.all([first, ...runs])
    // [4, 4] (4 more would be 12 events), [4], [25], [1, 999 bytes] (1,000 bytes), [1].
    expect(groups.map((g) => g.units)).toEqual([1, 2, 1, 1, 2, 1])
    expect(ids()).toEqual([0, 1, 2, 3, 4, 5, 6])
  })

  it('a transaction SQLite ended under a unit: the units before it are written again, once', async () => {
    const { c } = committer()
    const held = gate()
    const first = c.run(async () => void (await held.promise), one)
    await tick()
    const runs = { before: 0 }
    const results = Promise.allSettled([
      c.run(async () => {
        runs.before++
        insert(20)
      }, one),
      c.run(async () => {
        insert(21)
        db.sqlite.exec('ROLLBACK') // as SQLite does on an I/O error or a full disk
        throw new Error('disk I/O error')
      }, one),
      c.run(async () => insert(22), one),
    ])
    held.open()
    await first
    const [a, b, d] = await results
    expect([a.status, b.status, d.status]).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect(runs.before).toBe(2)
    expect(committedIds()).toEqual([20, 22])
  })

  it('a COMMIT that fails stores nothing of the group and fails each unit', async () => {
    db.sqlite.exec(`CREATE TABLE parent (id INTEGER PRIMARY KEY);
      CREATE TABLE child (id INTEGER PRIMARY KEY,
        parent INTEGER REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)`)
    const { c } = committer()
    const held = gate()
    const first = c.run(async () => void (await held.promise), one)
    await tick()
    const results = Promise.allSettled([
      c.run(async () => insert(30), one),
      // Checked at COMMIT only: the deferred foreign key of the whole transaction fails it.
      c.run(async () => void db.sqlite.prepare('INSERT INTO child VALUES (1, 99)').run(), one),
    ])
    held.open()
    await first
    const settled = await results
    expect(settled.map((r) => r.status)).toEqual(['rejected', 'rejected'])
    expect(String((settled[0] as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/)
    expect(committedIds()).toEqual([])
    // The committer goes on with the next group.
    await c.run(async () => insert(31), one)
    expect(committedIds()).toEqual([31])
  })

  it('raises a database that is not in WAL mode to synchronous=FULL for the group', async () => {
    db.sqlite.pragma('journal_mode = DELETE')
    db.sqlite.exec(`CREATE TABLE probe (level INTEGER);
      CREATE TRIGGER probe AFTER INSERT ON t BEGIN INSERT INTO probe SELECT synchronous FROM pragma_synchronous(); END;`)
    const { c } = committer()
    await c.run(async () => insert(1), one)
    expect(db.sqlite.prepare('SELECT level FROM probe').pluck().all()).toEqual([2])
    expect(db.sqlite.pragma('synchronous', { simple: true })).toBe(1)
  })

  it('what units defer is written once for the group, last, without the units that failed', async () => {
    db.sqlite.exec('CREATE TABLE total (n INTEGER NOT NULL)')
    const flushes: number[][] = []
    const { c } = committer({
      flush: async (_, deferred) => {
        flushes.push([...deferred])
        // Last in the transaction: every unit's own row is there already.
        expect(ids()).toEqual([50, 51, 53])
        db.sqlite.prepare('INSERT INTO total (n) VALUES (?)').run(deferred.reduce((a, b) => a + b, 0))
      },
    })
    const held = gate()
    const first = c.run(async () => void (await held.promise), one)
    await tick()
    const results = Promise.allSettled(
      [50, 51, 52, 53].map((id) =>
        c.run(async (_, defer) => {
          insert(id)
          defer(id - 49)
          if (id === 52) throw new Error('52 fails')
        }, one),
      ),
    )
    held.open()
    await first
    expect((await results).map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled'])
    // The failed try deferred nothing that stayed: 1 + 2 + 4, once.
    expect(flushes).toEqual([[1, 2, 4]])
    expect(db.sqlite.prepare('SELECT n FROM total').pluck().all()).toEqual([7])
  })

  it('a failing flush fails the group: nothing of it is stored', async () => {
    const { c } = committer({
      flush: async () => {
        throw new Error('the counters cannot be written')
      },
    })
    const results = await Promise.allSettled(
      [60, 61].map((id) =>
        c.run(async (_, defer) => {
          insert(id)
          defer(1)
        }, one),
      ),
    )
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected'])
    expect(committedIds()).toEqual([])
  })

  it('a long group lets other work run between its units, in the turns it is given', async () => {
    const turns: string[] = []
    const { c, groups } = committer({
      yieldTo: async (first) => {
        turns.push(`after ${ids().length} rows${first ? ', first' : ''}`)
        await tick()
      },
    })
    const busy = (ms: number) => {
      for (const end = performance.now() + ms; performance.now() < end;);
    }
    const units = [1, 2, 3].map((id) =>
      c.run(async () => {
        insert(id)
        busy(2) // longer than a slice: what follows waits for a turn
        return id
      }, one),
    )
    expect(await Promise.all(units)).toEqual([1, 2, 3])
    expect(groups.map((g) => g.units)).toEqual([3])
    // Between the units and before the counters and the COMMIT ahead of other work; after the
    // group, behind it (the batches that arrived meanwhile are parsed and join the next group).
    expect(turns).toEqual([
      'after 1 rows, first',
      'after 2 rows, first',
      'after 3 rows, first',
      'after 3 rows',
    ])
    expect(committedIds()).toEqual([1, 2, 3])
  })

  it('a group being written goes ahead of the work that waits for a turn meanwhile', async () => {
    const turn = createTurns(1)
    const { c } = committer({ yieldTo: turn })
    const log: string[] = []
    const busy = (ms: number) => {
      for (const end = performance.now() + ms; performance.now() < end;);
    }
    const units = [1, 2, 3].map((id) =>
      c.run(async () => {
        insert(id)
        busy(2) // longer than a slice: the group waits for a turn after each unit
        log.push(`unit ${id}`)
      }, one),
    )
    while (!log.length) await tick()
    // Batches that arrive while the group is written (their parsing takes turns too).
    const others = [1, 2].map(async (i) => {
      await turn()
      log.push(`other ${i}`)
    })
    await Promise.all([...units, ...others])
    expect(log).toEqual(['unit 1', 'unit 2', 'unit 3', 'other 1', 'other 2'])
    expect(committedIds()).toEqual([1, 2, 3])
  })

  it('idle() resolves once every unit handed in is settled', async () => {
    const { c } = committer()
    await c.idle()
    let done = 0
    const runs = [1, 2, 3].map((id) => c.run(async () => insert(id), one).then(() => done++))
    await c.idle()
    expect(done).toBe(3)
    await Promise.all(runs)
  })
})

describe('walSync', () => {
  it('coalesces: calls while a sync is in flight share the next one', async () => {
    const file = join(dir, 'log')
    writeFileSync(file, 'x')
    const wal = walSync(file)
    const a = wal.sync()
    const b = wal.sync()
    const d = wal.sync()
    expect(b).toBe(d) // both wait for the sync after the one in flight
    expect(a).not.toBe(b)
    await Promise.all([a, b, d])
    await wal.close()
  })

  it('a log that is gone counts as durable (the last connection checkpointed it)', async () => {
    await expect(walSync(join(dir, 'missing-wal')).sync()).resolves.toBeUndefined()
  })
})
