/**
 * Group commit on SQLite (docs/decisions/group-commit.md): units of work that arrive while a group
 * is being written wait and are written together, ONE transaction (`BEGIN IMMEDIATE … COMMIT`) on
 * the raw connection with each unit in its own savepoint, so a unit that throws is rolled back
 * alone and the others still commit. A unit is settled only once its group is durable: the group
 * commits under the connection's synchronous=NORMAL (no sync on the event loop) and the WAL file
 * is then synced with fdatasync on libuv's thread pool, which makes every transaction already
 * written to it durable (the sync synchronous=FULL would have done inside COMMIT). Syncs coalesce:
 * groups committed while one is in flight share the next.
 *
 * SQLite-specific; a PostgreSQL store gets grouped WAL flushes from the server itself.
 */
import { close as closeCallback, fdatasync as fdatasyncCallback, open as openCallback } from 'node:fs'
import { promisify } from 'node:util'
import type SQLite from 'better-sqlite3'
import type { Kysely } from 'kysely'

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

/** The longest a group keeps the event loop before it lets other work run (ms). */
const YIELD_AFTER_MS = 2

export interface GroupLimits {
  /** Most events in one group (a unit's weight counts as it arrives; one unit may exceed it). */
  maxEvents: number
  /** Most bytes in one group (the same rule). */
  maxBytes: number
}

/** What one group was: for the metrics. */
export interface GroupReport {
  units: number
  events: number
  failed: number
  /** ms from BEGIN to COMMIT (the work and the commit, on the event loop). */
  writeMs: number
  /** ms from COMMIT until the group was durable (the WAL sync, off the event loop). */
  syncMs: number
}

export interface UnitWeight {
  events: number
  bytes: number
}

export interface GroupCommitter {
  /**
   * Runs `work` inside the next group, in a savepoint of its own: resolves with its result once
   * the group is durable, or rejects with its error (its savepoint rolled back, the group's other
   * units unaffected). `work` may be asynchronous, but its statements must be the raw connection's
   * synchronous ones; it may run twice when the group's transaction was lost under it (see `run`).
   */
  run<T>(work: () => Promise<T>, weight: UnitWeight): Promise<T>
  /** Events of the units waiting for a group (not yet being written). */
  readonly waitingEvents: number
  /** Resolves once every transaction committed so far on the connection is durable. */
  durable(): Promise<void>
  /** Resolves once every unit handed in so far is settled. */
  idle(): Promise<void>
  /** Waits for the units handed in, then lets go of the WAL file. */
  close(): Promise<void>
}

interface Unit {
  work: () => Promise<unknown>
  weight: UnitWeight
  resolve(value: unknown): void
  reject(err: unknown): void
  /** Written in a careful group (savepoints): a unit of the group threw before. */
  careful: boolean
  /** Whether a careful group it was in lost its transaction (it is not written a third time). */
  retried: boolean
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown }

export interface GroupCommitOptions {
  limits: GroupLimits
  /** Each group once durable (metrics). */
  onGroup?: (report: GroupReport) => void
  /** What makes committed groups durable (default: the WAL sync, `walSync`). */
  sync?: () => Promise<void>
}

export function createGroupCommitter(
  db: Kysely<unknown>,
  sqlite: SQLite.Database,
  options: GroupCommitOptions,
): GroupCommitter {
  const { limits, onGroup = () => {} } = options
  const queue: Unit[] = []
  let waitingEvents = 0
  let writing = false
  let unsettled = 0
  let idleWaiters: Array<() => void> = []
  const durable: Durability = options.sync
    ? { around: (fn) => fn(), after: options.sync, close: async () => {} }
    : durability(sqlite)
  const sql = {
    begin: sqlite.prepare('BEGIN IMMEDIATE'),
    commit: sqlite.prepare('COMMIT'),
    rollback: sqlite.prepare('ROLLBACK'),
    savepoint: sqlite.prepare('SAVEPOINT unit'),
    release: sqlite.prepare('RELEASE unit'),
    rollbackTo: sqlite.prepare('ROLLBACK TO unit'),
  }

  /** The units of the next group, in arrival order, within the limits (at least one). */
  function take(): Unit[] {
    const group: Unit[] = []
    let events = 0
    let bytes = 0
    while (queue.length) {
      const next = queue[0]!
      if (
        group.length &&
        (events + next.weight.events > limits.maxEvents || bytes + next.weight.bytes > limits.maxBytes)
      )
        break
      queue.shift()
      waitingEvents -= next.weight.events
      events += next.weight.events
      bytes += next.weight.bytes
      group.push(next)
    }
    return group
  }

  /**
   * Writes one group and commits it; returns each unit's outcome (undefined: write it again). A
   * group runs its units without savepoints (they cost a copy of every page a unit touches first):
   * when one throws, the whole transaction is rolled back and the others are written again in a
   * careful group, each in its own savepoint, where a unit that throws is rolled back alone.
   */
  async function write(group: Unit[]): Promise<{ outcomes: Array<Outcome | undefined>; committed: boolean }> {
    const careful = group.some((u) => u.careful)
    return exclusive(db, () =>
      durable.around(async () => {
        sql.begin.run()
        const outcomes: Array<Outcome | undefined> = group.map(() => undefined)
        let ran = performance.now()
        try {
          for (const [i, unit] of group.entries()) {
            // A long group lets the event loop answer others (redirects, reads from caches) between
            // its units; the connection stays held, so nothing else joins the transaction.
            if (performance.now() - ran > YIELD_AFTER_MS) {
              await new Promise<void>((r) => setImmediate(r))
              ran = performance.now()
            }
            if (careful) sql.savepoint.run()
            try {
              outcomes[i] = { ok: true, value: await unit.work() }
              if (careful) sql.release.run()
            } catch (error) {
              outcomes[i] = { ok: false, error }
              if (careful && sqlite.inTransaction) {
                sql.rollbackTo.run()
                sql.release.run()
                continue
              }
              // No savepoint, or SQLite ended the transaction itself (an I/O error, a full disk):
              // nothing of the group stays; the other units are written again.
              if (sqlite.inTransaction) sql.rollback.run()
              return { outcomes: outcomes.map((o, j) => (j === i ? o : undefined)), committed: false }
            }
          }
          sql.commit.run()
          return { outcomes, committed: true }
        } catch (err) {
          if (sqlite.inTransaction) sql.rollback.run()
          throw err
        }
      }),
    )
  }

  function idle(): Promise<void> {
    if (unsettled === 0) return Promise.resolve()
    return new Promise((r) => idleWaiters.push(r))
  }

  function settle(unit: Unit, outcome: Outcome): void {
    if (outcome.ok) unit.resolve(outcome.value)
    else unit.reject(outcome.error)
    if (--unsettled === 0) {
      const waiters = idleWaiters
      idleWaiters = []
      for (const w of waiters) w()
    }
  }

  async function drain(): Promise<void> {
    try {
      while (queue.length) {
        const group = take()
        const t0 = performance.now()
        let outcomes: Array<Outcome | undefined>
        let committed: boolean
        try {
          ;({ outcomes, committed } = await write(group))
        } catch (error) {
          // BEGIN or COMMIT failed: nothing of the group is stored.
          for (const unit of group) settle(unit, { ok: false, error })
          continue
        }
        const written = performance.now()
        const careful = group.some((u) => u.careful)
        const again: Unit[] = []
        const done: Array<[Unit, Outcome]> = []
        group.forEach((unit, i) => {
          const outcome = outcomes[i]
          if (outcome) done.push([unit, outcome])
          else if (unit.retried)
            done.push([unit, { ok: false, error: new Error('the transaction was lost twice') }])
          else again.push(unit)
        })
        for (const unit of again.reverse()) {
          if (careful) unit.retried = true
          unit.careful = true
          queue.unshift(unit)
          waitingEvents += unit.weight.events
        }
        if (!committed) {
          // Rolled back: its failure is answered now, its other units come again.
          for (const [unit, outcome] of done) settle(unit, outcome)
          continue
        }
        // The next group is written while this one's sync runs; its units are settled after.
        const report = { units: group.length, events: 0, failed: 0, writeMs: written - t0, syncMs: 0 }
        for (const [unit, o] of done) {
          report.events += unit.weight.events
          if (!o.ok) report.failed++
        }
        durable.after().then(
          () => {
            report.syncMs = performance.now() - written
            for (const [unit, outcome] of done) settle(unit, outcome)
            try {
              onGroup(report)
            } catch {
              // the metrics never fail a group
            }
          },
          (error: unknown) => {
            // Not known to be durable: no unit of the group may be answered as stored.
            for (const [unit, outcome] of done) settle(unit, outcome.ok ? { ok: false, error } : outcome)
          },
        )
        // Let requests that arrived meanwhile be parsed and join the next group.
        await new Promise<void>((r) => setImmediate(r))
      }
    } finally {
      writing = false
    }
  }

  return {
    run<T>(work: () => Promise<T>, weight: UnitWeight): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({
          work,
          weight,
          resolve: resolve as (v: unknown) => void,
          reject,
          careful: false,
          retried: false,
        })
        waitingEvents += weight.events
        unsettled++
        if (writing) return
        // Units handed in during this turn of the event loop join the first group.
        writing = true
        setImmediate(() => void drain())
      })
    },
    get waitingEvents() {
      return waitingEvents
    },
    durable: () => durable.after(),
    idle,
    async close(): Promise<void> {
      await idle()
      await durable.close()
    },
  }
}

/** How a group is made durable on this connection. */
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
