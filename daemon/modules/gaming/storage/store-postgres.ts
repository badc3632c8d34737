/**
 * The PostgreSQL store of the gaming layers (same port as store.ts): one transaction per batch
 * under the locks of locks-store-postgres.ts, the snapshot read with `= ANY($2)`, one multi-row
 * statement per table in key order with the shared aggregate rows last (their locks held
 * shortest); a batch that meets another runs again. See docs/decisions/gaming-batch-locks.md.
 */
import type { Kysely } from 'kysely'
import type { Database } from '../../../db/schema.js'
import { addCountersOnConflict } from '../../../db/counters.js'
import {
  byKey,
  insertRows,
  query,
  updateRows,
  type Column,
  type Executor,
} from '../../../db/postgres-rows.js'
import { kyselyOf, postgresUnit } from '../../../db/unit-of-work.js'
import { isTransientConflict, isUniqueViolation, retryingConflicts } from '../../../db/errors.js'
import { lockBatch } from './locks-store-postgres.js'
import {
  MONEY_CEILINGS,
  compileSteps,
  runWrites,
  writesOf,
  type Field,
  type StepStatement,
  type WriteStep,
} from './snapshot-plan.js'
import { batchKeys, sessionKeys, snapshotOf } from './snapshot-read.js'
import type { StorageStore } from './store.js'
import type { PlayerDayRow, ProfileRow, SessionRow, Snapshot } from './types.js'

/** A plan's field as a multi-row statement's column (its values sent as one int8 or text array). */
const pgColumns = <T>(fields: readonly Field<T>[]): Column<T>[] =>
  fields.map(([name, kind, value]) => [name, kind === 'integer' ? 'int8' : 'text', value])

/**
 * A save step (snapshot-plan.ts) as one multi-row statement, its rows sorted by the step's keys
 * first: every batch takes the row locks of a table in one order, so two batches writing the same
 * rows wait for each other instead of deadlocking. Events have no ON CONFLICT: an event id a
 * concurrent batch (of other players) stored since the snapshot raises a unique violation, and the
 * batch runs again (it then counts the event a duplicate).
 */
function pgStep<T>(step: WriteStep<T>): StepStatement<T, Executor, Promise<void>> {
  const keys = pgColumns(step.keys)
  const columns = pgColumns(step.columns)
  const conflict = () =>
    addCountersOnConflict(
      step.table,
      ['game_id', ...keys.map(([name]) => name)],
      columns.map(([name]) => name),
      MONEY_CEILINGS,
    )
  const write =
    step.write === 'update'
      ? updateRows(step.table, columns, keys)
      : insertRows(step.table, [...keys, ...columns], step.write === 'add' ? conflict() : '')
  const order = byKey(keys)
  return (db, gameId, rows) => write(db, gameId, [...rows].sort(order))
}

const statements = compileSteps<Executor, Promise<void>>(pgStep)

const SQL = {
  storedEventIds: 'SELECT event_id FROM game_events WHERE game_id = $1 AND event_id = ANY($2::text[])',
  players: 'SELECT * FROM game_players WHERE game_id = $1 AND player_id = ANY($2::text[])',
  playerDays: `SELECT player_id, day, install_day, events, revenue_micros, event_types, custom_events FROM game_player_days
    WHERE game_id = $1 AND player_id = ANY($2::text[]) ORDER BY player_id, day`,
  // In click id order: two batches claiming the same ids wait for each other, never deadlock.
  claimClicks: `INSERT INTO install_click_claims (organization_id, click_id, game_id, player_id, claimed_at)
    SELECT $1::text, c.click_id, $2::text, c.player_id, $3::int8 FROM unnest($4::text[], $5::text[]) AS c(click_id, player_id)
    ORDER BY c.click_id
    ON CONFLICT (organization_id, click_id) DO NOTHING RETURNING click_id`,
  sessionsById: 'SELECT * FROM game_sessions WHERE game_id = $1 AND id = ANY($2::text[])',
  // The latest start of each (player, session_id): the index game_sessions_player.
  sessionsBySid: `SELECT DISTINCT ON (player_id, session_id) * FROM game_sessions
    WHERE game_id = $1 AND (player_id, session_id) IN (SELECT * FROM unnest($2::text[], $3::text[]))
    ORDER BY player_id, session_id, started_at DESC, id DESC`,
}

/**
 * What makes a batch's transaction run again: a deadlock or serialization failure, or a unique
 * violation on game_events (an event id another batch stored while this one was folding).
 */
function concurrentBatch(err: unknown): boolean {
  const table = (err as { table?: unknown } | null)?.table
  return isTransientConflict(err) || (isUniqueViolation(err) && table === 'game_events')
}

export function createPostgresStorageStore(db: Kysely<Database>): StorageStore {
  return {
    /** A commit is durable when it returns (synchronous_commit). */
    durable: () => Promise.resolve(),
    close: () => Promise.resolve(),

    unitOfWork(gameId, work, scope) {
      return retryingConflicts(
        () =>
          db.transaction().execute(async (trx) => {
            await lockBatch(trx, gameId, scope)
            return work(postgresUnit(trx))
          }),
        { retryable: concurrentBatch, what: 'the batch' },
      )
    },

    /** The rows the batch's events can touch (snapshot-plan.ts), read for the whole batch at once. */
    async loadSnapshot(unit, gameId, events): Promise<Snapshot> {
      const trx = kyselyOf(unit)
      const { eventIds, playerIds } = batchKeys(events)
      const stored = await query<{ event_id: string }>(trx, SQL.storedEventIds, [gameId, eventIds])
      const rows = await query<ProfileRow>(trx, SQL.players, [gameId, playerIds])
      const profiles = new Map(rows.map((p) => [p.player_id, p]))
      const days = new Map<string, PlayerDayRow[]>(rows.map((p) => [p.player_id, []]))
      const { currentIds, pairs } = sessionKeys(events, profiles)
      let currentSessions: SessionRow[] = []
      let latestSessions: SessionRow[] = []
      if (profiles.size) {
        for (const d of await query<PlayerDayRow>(trx, SQL.playerDays, [gameId, [...profiles.keys()]]))
          days.get(d.player_id)!.push(d)
        if (currentIds.length)
          currentSessions = await query<SessionRow>(trx, SQL.sessionsById, [gameId, currentIds])
        if (pairs.length) {
          const params = [gameId, pairs.map(([p]) => p), pairs.map(([, sid]) => sid)]
          latestSessions = await query<SessionRow>(trx, SQL.sessionsBySid, params)
        }
      }
      return snapshotOf(events, {
        storedEventIds: stored.map((r) => r.event_id),
        profiles,
        days: (playerId) => days.get(playerId) ?? [],
        currentSessions,
        latestSessions,
      })
    },

    async claimClicks(unit, { organizationId, gameId, at, claims }) {
      if (claims.length === 0) return new Set()
      const rows = await query<{ click_id: string }>(kyselyOf(unit), SQL.claimClicks, [
        organizationId,
        gameId,
        at,
        claims.map((c) => c.clickId),
        claims.map((c) => c.playerId),
      ])
      return new Set(rows.map((r) => r.click_id))
    },

    /**
     * The plan's writes in its order, one statement per table and kind (each statement's rows in
     * key order); the counters every batch of the game shares last.
     */
    async save(unit, batch, changes) {
      await runWrites(kyselyOf(unit), batch.gameId, writesOf(batch, changes), statements)
    },
  }
}
