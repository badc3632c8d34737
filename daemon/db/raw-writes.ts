/**
 * Rules for the hot paths that write through prepared better-sqlite3 statements on the connection
 * Kysely also uses (the gaming stores; the click store runs its statements inside a Kysely
 * transaction instead, which holds the connection too). SQLite-specific; a PostgreSQL store gets
 * both from its own transactions (one connection per transaction, synchronous_commit on).
 */
import type SQLite from 'better-sqlite3'
import type { Kysely } from 'kysely'

/**
 * Runs `fn` (synchronous work on the raw handle, usually one transaction) while holding Kysely's
 * connection. There is one SQLite connection: a Kysely transaction that awaits between statements
 * leaves it open, and raw statements issued meanwhile would join it (as a savepoint), to be
 * committed or rolled back with someone else's work. Waiting for the connection keeps each raw
 * transaction on its own.
 */
export function exclusive<DB, T>(db: Kysely<DB>, fn: () => T | Promise<T>): Promise<T> {
  return db.connection().execute(async () => fn())
}

/**
 * Runs a synchronous transaction under `synchronous=FULL` (its commit synced), then restores
 * NORMAL: see docs/decisions/synchronous-modes.md. SQLite refuses the change inside a transaction,
 * and applies the pragma when compiled, so it is prepared each time.
 */
export function fullSync<T>(sqlite: SQLite.Database, fn: () => T): T {
  const restore = raiseToFull(sqlite)
  try {
    return fn()
  } finally {
    restore()
  }
}

/** Raises the connection to synchronous=FULL (see `fullSync`); returns what restores its level. */
function raiseToFull(sqlite: SQLite.Database): () => void {
  if (sqlite.inTransaction) throw new Error('fullSync: a transaction is already open on the connection')
  const level = Number(sqlite.pragma('synchronous', { simple: true })) // 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA
  if (level >= 2) return () => {}
  sqlite.pragma('synchronous = FULL')
  return () => sqlite.pragma(`synchronous = ${level === 0 ? 'OFF' : 'NORMAL'}`)
}

/**
 * Runs `work` as ONE transaction on the raw connection (`BEGIN IMMEDIATE … COMMIT`, or ROLLBACK
 * when it throws), under synchronous=FULL, holding Kysely's connection all along (`exclusive`).
 * `work` may be asynchronous so that store ports are the same on both engines: on SQLite its
 * statements are synchronous prepared ones, and since Kysely's connection stays taken, nothing
 * else joins the transaction while it awaits. Once this resolves, the work survives a power loss.
 */
export function rawTransaction<DB, T>(
  db: Kysely<DB>,
  sqlite: SQLite.Database,
  work: () => Promise<T>,
): Promise<T> {
  return exclusive(db, async () => {
    const restore = raiseToFull(sqlite)
    try {
      sqlite.prepare('BEGIN IMMEDIATE').run()
      try {
        const result = await work()
        sqlite.prepare('COMMIT').run()
        return result
      } catch (err) {
        // A failed statement may have ended the transaction already (SQLite rolls back on some errors).
        if (sqlite.inTransaction) sqlite.prepare('ROLLBACK').run()
        throw err
      }
    } finally {
      restore()
    }
  })
}
