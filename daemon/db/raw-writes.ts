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
 * Runs a synchronous transaction under `synchronous=FULL`, then restores the connection's level
 * (NORMAL, daemon/db/open.ts). In WAL mode NORMAL syncs the WAL only at checkpoints, so a power
 * loss can take the last commits; FULL syncs it at every commit: what a reply promising the data
 * is stored needs. SQLite refuses to change the level inside a transaction, hence around it; run
 * it inside `exclusive` so that no transaction is open and nothing else commits meanwhile.
 * (`sqlite.pragma` prepares the statement each time on purpose: SQLite applies this pragma when
 * the statement is compiled, so a prepared one run again does not reliably set it.)
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
