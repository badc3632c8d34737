/** addCountersSql: a new row is inserted, a stored one gets each counter added (real SQLite). */
import SQLite from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { addCountersSql } from '../../../daemon/db/counters.js'

describe('addCountersSql', () => {
  it('inserts a new row and adds to the counters of a stored one, keys in any order', () => {
    const db = new SQLite(':memory:')
    db.exec('CREATE TABLE t (a TEXT, b INTEGER, n INTEGER, m INTEGER, PRIMARY KEY (b, a))')
    const upsert = db.prepare(addCountersSql('t', ['a', 'b'], ['n', 'm']))
    upsert.run('x', 1, 2, 10)
    upsert.run('x', 1, 3, -4)
    upsert.run('y', 1, 5, 5)
    expect(db.prepare('SELECT * FROM t ORDER BY a').all()).toEqual([
      { a: 'x', b: 1, n: 5, m: 6 },
      { a: 'y', b: 1, n: 5, m: 5 },
    ])
    db.close()
  })
})
