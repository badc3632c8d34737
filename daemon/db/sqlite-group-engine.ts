/**
 * SQLite's engine for the group committer (group-commit.ts): each group one `BEGIN IMMEDIATE …
 * COMMIT` on the one connection, holding Kysely's (`exclusive`), and made durable after the
 * commit, off the event loop (the WAL synced on the thread pool, `walSync`).
 */
import { close as closeCallback, fdatasync as fdatasyncCallback, open as openCallback } from 'node:fs'
import { promisify } from 'node:util'
import type SQLite from 'better-sqlite3'
import type { Kysely } from 'kysely'
import type { GroupEngine, GroupTransaction } from './group-commit.js'

const openFile = promisify(openCallback)
const fdatasync = promisify(fdatasyncCallback)
const closeFile = promisify(closeCallback)

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
 * SQLite's groups: `BEGIN IMMEDIATE … COMMIT` on the raw connection (the one writer), holding
 * Kysely's connection (`exclusive`). `unit` is what a unit's statements run on. In WAL mode the
 * group commits under synchronous=NORMAL and `durable` syncs the WAL (`walSync`); a database not in
 * WAL mode commits under synchronous=FULL; `:memory:` has nothing to sync.
 */
export function sqliteGroupEngine<U>(
  db: Kysely<unknown>,
  sqlite: SQLite.Database,
  unit: U,
  /** What makes committed groups durable instead (tests). */
  sync?: () => Promise<void>,
): GroupEngine<U> {
  const stmt = {
    begin: sqlite.prepare('BEGIN IMMEDIATE'),
    commit: sqlite.prepare('COMMIT'),
    rollback: sqlite.prepare('ROLLBACK'),
    savepoint: sqlite.prepare('SAVEPOINT unit'),
    release: sqlite.prepare('RELEASE unit'),
    rollbackTo: sqlite.prepare('ROLLBACK TO unit'),
  }
  const tx: GroupTransaction<U> = {
    unit,
    savepoint: async () => void stmt.savepoint.run(),
    release: async () => void stmt.release.run(),
    rollbackTo: async () => void stmt.rollbackTo.run(),
    open: () => sqlite.inTransaction,
  }
  const durable = sync
    ? { around: <T>(fn: () => Promise<T>) => fn(), after: sync, close: async () => {} }
    : durability(sqlite)
  return {
    transaction: (fn) =>
      exclusive(db, () =>
        durable.around(async () => {
          stmt.begin.run()
          try {
            const result = await fn(tx)
            stmt.commit.run()
            return result
          } catch (err) {
            if (sqlite.inTransaction) stmt.rollback.run()
            throw err
          }
        }),
      ),
    durable: () => durable.after(),
    close: () => durable.close(),
  }
}

/** How a group is made durable on a SQLite connection. */
interface Durability {
  /** Wraps the group's transaction (raises synchronous for a database not in WAL mode). */
  around<T>(fn: () => Promise<T>): Promise<T>
  /** Resolves once everything committed before the call is durable. */
  after(): Promise<void>
  close(): Promise<void>
}

function durability(sqlite: SQLite.Database): Durability {
  const none: Durability = { around: (fn) => fn(), after: () => Promise.resolve(), close: async () => {} }
  if (sqlite.memory) return none
  const mode = String(sqlite.pragma('journal_mode', { simple: true })).toLowerCase()
  if (mode !== 'wal')
    return {
      // Without a WAL there is no log to sync apart: the commit syncs itself.
      async around(fn) {
        const level = Number(sqlite.pragma('synchronous', { simple: true }))
        if (level >= 2) return fn()
        sqlite.pragma('synchronous = FULL')
        try {
          return await fn()
        } finally {
          sqlite.pragma(`synchronous = ${level === 0 ? 'OFF' : 'NORMAL'}`)
        }
      },
      after: () => Promise.resolve(),
      close: async () => {},
    }
  const wal = walSync(`${sqlite.name}-wal`)
  return { around: (fn) => fn(), after: wal.sync, close: wal.close }
}

/**
 * fdatasync of the WAL file on the thread pool, coalesced: a call while a sync is in flight (which
 * may have started before the caller's commit) gets the next one; calls meanwhile share it. The
 * log is opened once and kept: SQLite keeps the same file while a connection is open (a checkpoint
 * truncates it, never replaces it). SQLite holds no lock on the WAL file itself (its locks are on
 * the database and -shm files), so this descriptor cannot release one when it closes.
 */
export function walSync(path: string): { sync(): Promise<void>; close(): Promise<void> } {
  let fd: number | undefined
  let inFlight: Promise<void> | undefined
  let next: Promise<void> | undefined
  const once = async (): Promise<void> => {
    if (fd === undefined) {
      try {
        fd = await openFile(path, 'r+')
      } catch (err) {
        // No log: the last connection closed, which checkpointed it into the synced database.
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return
        throw err
      }
    }
    await fdatasync(fd)
  }
  const launch = (): Promise<void> => {
    const p: Promise<void> = once().finally(() => {
      if (inFlight === p) inFlight = undefined
    })
    inFlight = p
    return p
  }
  return {
    sync() {
      if (next) return next
      if (!inFlight) return launch()
      next = inFlight
        .catch(() => {})
        .then(() => {
          next = undefined
          return launch()
        })
      return next
    },
    async close() {
      await Promise.allSettled([inFlight, next])
      if (fd !== undefined) await closeFile(fd)
      fd = undefined
    },
  }
}
