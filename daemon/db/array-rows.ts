/**
 * Reads for the streamed raw exports (millions of rows): a select's rows as arrays of cells in
 * its select order, no object per row (better-sqlite3's raw mode, pg's rowMode 'array'), the
 * same shape on both engines. On SQLite the read runs on the read-only second connection when
 * the file has one: its page cache is SQLite's small default, so that a long scan does not fill
 * the main connection's large cache (+24 MB RSS over a 1M-row export), and it never reads inside
 * a transaction the main connection has open. Store files only.
 */
import type { Statement } from 'better-sqlite3'
import type { CompiledQuery } from 'kysely'
import type { Db } from './open.js'

/** Runs a compiled select (Kysely's, for this database's engine): its rows as arrays. */
export type ArrayRows = (query: CompiledQuery) => Promise<unknown[][]>

export function arrayRows(db: Db): ArrayRows {
  if (db.dialect === 'postgres') {
    const { pool } = db
    return async (q) =>
      (await pool.query({ text: q.sql, values: [...q.parameters], rowMode: 'array' })).rows as unknown[][]
  }
  // Prepared once per SQL text (the stores have a handful) on the connection that runs it.
  const statements = new Map<string, Statement>()
  return async (q) => {
    const connection = db.reader() ?? db.sqlite
    let stmt = statements.get(q.sql)
    if (stmt?.database !== connection) {
      stmt = connection.prepare(q.sql).raw(true)
      statements.set(q.sql, stmt)
    }
    return stmt.all(q.parameters as unknown[]) as unknown[][]
  }
}

/**
 * Rows per page of an export's reads: a page lives while it is encoded, and a small one dies in
 * V8's young generation; pages of 10,000 rows outlived it and grew the old generation by ~100 MB
 * over a long export (JS heap, `npm run bench raw-export`), and cost more CPU in GC.
 */
export const EXPORT_PAGE_ROWS = 2_000
