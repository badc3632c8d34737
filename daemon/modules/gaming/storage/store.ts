/**
 * The SQLite store of the gaming storage layers (raw events, sessions, profiles, aggregates): it
 * runs the plan of snapshot-plan.ts (what a batch reads and writes) with prepared better-sqlite3
 * statements (~8x the query builder's insert rate), one row at a time, inside one transaction
 * committed under synchronous=FULL (daemon/db/raw-writes.ts). The rules are in fold.ts. Every
 * statement is portable SQL except json_each. The PostgreSQL store behind the same port
 * (`GamedataStore`) is store-postgres.ts.
 */
import type SQLite from 'better-sqlite3'
import type { Kysely } from 'kysely'
import type { Database } from '../../../db/schema.js'
import { addCountersSql } from '../../../db/counters.js'
import { rawTransaction } from '../../../db/raw-writes.js'
import { assertOpenOn, syncUnit, type UnitOfWork } from '../../../db/unit-of-work.js'
import {
  MONEY_CEILINGS,
  batchKeys,
  compileSteps,
  runWrites,
  sessionKeys,
  snapshotOf,
  valuesOf,
  writesOf,
  type Field,
  type StepStatement,
  type WriteStep,
} from './snapshot-plan.js'
import type {
  AcceptedBatch,
  AcceptedEvent,
  BatchLocks,
  Changes,
  PlayerDayRow,
  ProfileRow,
  SessionRow,
  Snapshot,
} from './types.js'

/** The port of the batch write path: one implementation per engine. */
export interface GamedataStore {
  /**
   * Runs `work` (the loads, the fold, the saves, and other stores' statements given the unit) as
   * ONE transaction, the only one writing the rows of `scope`'s players (and handling its
   * batch_id) meanwhile, or without `scope` the only one writing the game's rows; once this
   * resolves, the work is committed durably (SQLite: synchronous=FULL; PostgreSQL:
   * synchronous_commit). SQLite has one writer: every unit runs alone. PostgreSQL may run `work`
   * again in a new transaction when a concurrent one got in its way (nothing of the first run
   * stays), and throws a WriteConflictError (daemon/db/errors.ts) when that keeps happening.
   */
  unitOfWork<T>(gameId: string, work: (unit: UnitOfWork) => Promise<T>, scope?: BatchLocks): Promise<T>
  /** The rows the batch's events can touch, as the tables hold them before the batch. */
  loadSnapshot(unit: UnitOfWork, gameId: string, events: readonly AcceptedEvent[]): Promise<Snapshot>
  /** Writes the fold's changes. */
  save(unit: UnitOfWork, batch: AcceptedBatch, changes: Changes): Promise<void>
}

const names = <T>(fields: readonly Field<T>[]) => fields.map(([name]) => name)

/**
 * A save step (snapshot-plan.ts) as a prepared statement run once per row. New rows are plain
 * INSERTs; existing ones get UPDATEs of the columns that changed, so that indexes on unchanged
 * columns are not rewritten (SQLite updates the indexes of SET columns).
 */
function prepareStep<T>(sqlite: SQLite.Database, step: WriteStep<T>): StepStatement<T, void, void> {
  const { table, keys, columns } = step
  if (step.write === 'update') {
    const set = names(columns).map((c) => `${c} = ?`)
    const where = ['game_id', ...names(keys)].map((c) => `${c} = ?`)
    const update = sqlite.prepare(`UPDATE ${table} SET ${set.join(', ')} WHERE ${where.join(' AND ')}`)
    return (_db, gameId, rows) => {
      for (const row of rows) update.run(...valuesOf(row, columns), gameId, ...valuesOf(row, keys))
    }
  }
  const fields = [...keys, ...columns]
  const all = ['game_id', ...names(fields)]
  const sql =
    step.write === 'add'
      ? addCountersSql(table, ['game_id', ...names(keys)], names(columns), MONEY_CEILINGS)
      : // An event id already stored is a duplicate the fold counted: nothing to insert.
        `INSERT INTO ${table} (${all.join(', ')}) VALUES (${all.map(() => '?').join(', ')})` +
        (table === 'game_events' ? ' ON CONFLICT (game_id, event_id) DO NOTHING' : '')
  const insert = sqlite.prepare(sql)
  return (_db, gameId, rows) => {
    for (const row of rows) insert.run(gameId, ...valuesOf(row, fields))
  }
}

export function createGamedataStore(sqlite: SQLite.Database, db: Kysely<Database>): GamedataStore {
  // SQLite-only: prepared statements (the hot path); nothing outside this file sees them.
  const statements = {
    storedEventIds: sqlite
      .prepare(
        'SELECT event_id FROM game_events WHERE game_id = ? AND event_id IN (SELECT value FROM json_each(?))',
      )
      .pluck(),
    player: sqlite.prepare('SELECT * FROM game_players WHERE game_id = ? AND player_id = ?'),
    playerDays: sqlite.prepare(
      `SELECT player_id, day, install_day, events, revenue_micros, event_types FROM game_player_days
       WHERE game_id = ? AND player_id = ? ORDER BY day`,
    ),
    sessionBySid: sqlite.prepare(
      'SELECT * FROM game_sessions WHERE game_id = ? AND player_id = ? AND session_id = ? ORDER BY started_at DESC LIMIT 1',
    ),
    sessionById: sqlite.prepare('SELECT * FROM game_sessions WHERE game_id = ? AND id = ?'),
  }
  const writes = compileSteps<void, void>(<T>(step: WriteStep<T>) => prepareStep(sqlite, step))

  /** The rows the batch's events can touch (snapshot-plan.ts), one player or session at a time. */
  function loadSnapshotNow(gameId: string, events: readonly AcceptedEvent[]): Snapshot {
    const { eventIds, playerIds } = batchKeys(events)
    const profiles = new Map<string, ProfileRow>()
    const days = new Map<string, PlayerDayRow[]>()
    for (const playerId of playerIds) {
      const profile = statements.player.get(gameId, playerId) as ProfileRow | undefined
      if (!profile) continue
      profiles.set(playerId, profile)
      days.set(playerId, statements.playerDays.all(gameId, playerId) as PlayerDayRow[])
    }
    const { currentIds, pairs } = sessionKeys(events, profiles)
    const found = (row: unknown) => row as SessionRow | undefined
    return snapshotOf(events, {
      storedEventIds: statements.storedEventIds.all(gameId, JSON.stringify(eventIds)) as string[],
      profiles,
      days,
      currentSessions: currentIds
        .map((id) => found(statements.sessionById.get(gameId, id)))
        .filter((s) => s !== undefined),
      latestSessions: pairs
        .map(([playerId, sid]) => found(statements.sessionBySid.get(gameId, playerId, sid)))
        .filter((s) => s !== undefined),
    })
  }

  return {
    async loadSnapshot(unit, gameId, events) {
      assertOpenOn(unit, sqlite)
      return loadSnapshotNow(gameId, events)
    },
    /** The plan's writes, in its order: new rows as INSERTs, existing ones as narrow UPDATEs, increments. */
    async save(unit, batch, changes) {
      assertOpenOn(unit, sqlite)
      await runWrites(undefined, batch.gameId, writesOf(batch, changes), writes)
    },
    /**
     * One writer at a time on SQLite: `BEGIN IMMEDIATE … COMMIT` on the raw connection, never
     * inside a transaction another task left open on it, under synchronous=FULL
     * (daemon/db/raw-writes.ts).
     */
    unitOfWork(_gameId, work) {
      return rawTransaction(db, sqlite, () => work(syncUnit(sqlite)))
    },
  }
}
