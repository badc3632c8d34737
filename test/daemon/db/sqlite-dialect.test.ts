/**
 * linkd's SQLite dialect (daemon/db/sqlite-dialect.ts): statements prepared once per SQL text
 * (bounded, PRAGMAs never kept), and the one connection handed to its waiters in arrival order.
 */
import { sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { openDatabase, type SqliteDb } from '../../../daemon/db/open.js'
import { STATEMENT_CACHE_SIZE } from '../../../daemon/db/sqlite-dialect.js'

let db: SqliteDb
beforeEach(() => {
  db = openDatabase('sqlite::memory:') as SqliteDb
  db.sqlite.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)')
})
afterEach(async () => {
  vi.restoreAllMocks()
  await db.close()
})

describe('the SQLite dialect', () => {
  it('prepares a statement once and runs it again with other parameters', async () => {
    const prepare = vi.spyOn(db.sqlite, 'prepare')
    for (let i = 0; i < 5; i++)
      await db.kysely
        .insertInto('t' as never)
        .values({ id: i, v: `v${i}` } as never)
        .execute()
    const rows = await sql<{ id: number }>`SELECT id FROM t WHERE id > ${1} ORDER BY id`.execute(db.kysely)
    expect(rows.rows.map((r) => r.id)).toEqual([2, 3, 4])
    await sql`SELECT id FROM t WHERE id > ${3} ORDER BY id`.execute(db.kysely)
    // One insert text and one select text.
    expect(prepare).toHaveBeenCalledTimes(2)
  })

  it('keeps at most STATEMENT_CACHE_SIZE statements, the least recently used going first', async () => {
    const prepare = vi.spyOn(db.sqlite, 'prepare')
    const query = (n: number) => sql.raw(`SELECT ${n} AS n`).execute(db.kysely)
    await query(0)
    for (let n = 1; n <= STATEMENT_CACHE_SIZE; n++) await query(n)
    expect(prepare).toHaveBeenCalledTimes(STATEMENT_CACHE_SIZE + 1)
    await query(STATEMENT_CACHE_SIZE) // kept
    expect(prepare).toHaveBeenCalledTimes(STATEMENT_CACHE_SIZE + 1)
    await query(0) // the oldest went out when the cache was full
    expect(prepare).toHaveBeenCalledTimes(STATEMENT_CACHE_SIZE + 2)
  })

  it('prepares a PRAGMA every time (it takes effect when prepared)', async () => {
    await sql`PRAGMA synchronous = FULL`.execute(db.kysely)
    db.sqlite.pragma('synchronous = NORMAL')
    await sql`PRAGMA synchronous = FULL`.execute(db.kysely)
    expect(db.sqlite.pragma('synchronous', { simple: true })).toBe(2)
  })

  it('hands the connection to waiting transactions in the order they asked', async () => {
    const order: number[] = []
    await Promise.all(
      [0, 1, 2, 3, 4].map((i) =>
        db.kysely.transaction().execute(async (trx) => {
          order.push(i)
          await sql`INSERT INTO t (id, v) VALUES (${i}, 'x')`.execute(trx)
          await new Promise((r) => setImmediate(r))
        }),
      ),
    )
    expect(order).toEqual([0, 1, 2, 3, 4])
    expect(db.sqlite.prepare('SELECT count(*) FROM t').pluck().get()).toBe(5)
  })

  it('streams a query while the same text runs again after it', async () => {
    for (let i = 0; i < 3; i++) db.sqlite.prepare('INSERT INTO t VALUES (?, ?)').run(i, 'x')
    const seen: number[] = []
    const query = db.kysely.selectFrom('t' as never).select('id' as never)
    for await (const row of query.stream()) seen.push((row as { id: number }).id)
    expect(seen).toEqual([0, 1, 2])
    expect((await query.execute()).length).toBe(3)
  })
})
