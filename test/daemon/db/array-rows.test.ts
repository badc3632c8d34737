/**
 * The raw exports' reads: rows as arrays of cells in select order, on a SQLite file (read by its
 * second, read-only connection: only committed rows, never those of a transaction the main
 * connection has open) and in memory (one connection).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { arrayRows } from '../../../daemon/db/array-rows.js'
import { openDatabase, type Db } from '../../../daemon/db/open.js'

let dir = ''
let db: Db | undefined
afterEach(async () => {
  await db?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
  dir = ''
})

function open(file: boolean): Db & { dialect: 'sqlite' } {
  dir = file ? mkdtempSync(join(tmpdir(), 'linkd-array-rows-')) : ''
  const opened = openDatabase(file ? `sqlite:${join(dir, 'x.db')}` : 'sqlite::memory:')
  if (opened.dialect !== 'sqlite') throw new Error('SQLite only')
  db = opened
  opened.sqlite.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)')
  opened.sqlite.exec("INSERT INTO t (id, v) VALUES (1, 'a'), (2, NULL)")
  return opened
}

describe('array rows', () => {
  for (const file of [true, false])
    it(`rows as arrays in select order (${file ? 'file' : 'memory'})`, async () => {
      const d = open(file)
      const read = arrayRows(d)
      const q = sql`SELECT v, id FROM t WHERE id >= ${1} ORDER BY id`.compile(d.kysely)
      expect(await read(q)).toEqual([
        ['a', 1],
        [null, 2],
      ])
      // The statement is reused for the same SQL with other values.
      expect(await read(sql`SELECT v, id FROM t WHERE id >= ${2} ORDER BY id`.compile(d.kysely))).toEqual([
        [null, 2],
      ])
    })

  it('a file: rows of a transaction still open on the main connection are not read', async () => {
    const d = open(true)
    const read = arrayRows(d)
    const q = sql`SELECT id FROM t ORDER BY id`.compile(d.kysely)
    d.sqlite.exec('BEGIN')
    d.sqlite.exec("INSERT INTO t (id, v) VALUES (3, 'c')")
    expect(await read(q)).toEqual([[1], [2]])
    d.sqlite.exec('COMMIT')
    expect(await read(q)).toEqual([[1], [2], [3]])
  })
})
