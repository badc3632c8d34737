/**
 * The ingestion's own data: the batch_id records of the 24 h idempotency window (game_batches).
 * The events of a batch belong to the storage module; a batch's record is written in the same
 * unit of work as its events (storage's `storeBatch` lends it to `responseOf` and `record`). On
 * SQLite those two are prepared statements on the raw connection (the hot path), kept inside this
 * file; the PostgreSQL store (store-postgres.ts) runs the same SQL text on the unit's transaction.
 */
import type SQLite from 'better-sqlite3'
import type { Kysely } from 'kysely'
import type { Database } from '../../../db/schema.js'
import { assertOpenOn, type UnitOfWork } from '../../../db/unit-of-work.js'

/** The port of the batch_id records: one implementation per engine. */
export interface IngestStore {
  /**
   * The stored response of a batch_id seen since `since`, inside `unit` when given; outside one,
   * a committed response that may not be durable yet (the caller waits for `durable()` of the
   * storage before answering with it).
   */
  responseOf(gameId: string, batchId: string, since: number, unit?: UnitOfWork): Promise<string | undefined>
  /** Records a batch's response inside the batch's unit of work. */
  record(
    gameId: string,
    batchId: string,
    response: string,
    receivedAt: number,
    unit: UnitOfWork,
  ): Promise<void>
  /** batch_id records past the idempotency window. */
  pruneBatches(before: number): Promise<number>
}

/** The two statements of the unit of work (`?` placeholders; PostgreSQL numbers them). */
export const BATCH_SQL = {
  find: 'SELECT response FROM game_batches WHERE game_id = ? AND batch_id = ? AND received_at > ?',
  insert: `INSERT INTO game_batches (game_id, batch_id, response, received_at) VALUES (?, ?, ?, ?)
    ON CONFLICT (game_id, batch_id) DO UPDATE SET response = excluded.response, received_at = excluded.received_at`,
}

/** What both engines do through Kysely: the look-up outside a unit of work, and the pruning. */
export function batchReads(db: Kysely<Database>): Pick<IngestStore, 'pruneBatches'> & {
  responseOutside(gameId: string, batchId: string, since: number): Promise<string | undefined>
} {
  return {
    async responseOutside(gameId, batchId, since) {
      const row = await db
        .selectFrom('game_batches')
        .select('response')
        .where('game_id', '=', gameId)
        .where('batch_id', '=', batchId)
        .where('received_at', '>', since)
        .executeTakeFirst()
      return row?.response
    },
    async pruneBatches(before) {
      return Number(
        (await db.deleteFrom('game_batches').where('received_at', '<=', before).executeTakeFirst())
          .numDeletedRows,
      )
    },
  }
}

export function createIngestStore(
  sqlite: SQLite.Database,
  db: Kysely<Database>,
  /** The read-only connection (daemon/db/open.ts), none for an in-memory database. */
  reader: () => SQLite.Database | undefined = () => undefined,
): IngestStore {
  // SQLite-only: prepared statements run inside storage's unit of work.
  const statements = {
    findBatch: sqlite.prepare(BATCH_SQL.find).pluck(),
    insertBatch: sqlite.prepare(BATCH_SQL.insert),
  }
  let findCommitted: SQLite.Statement | undefined
  const reads = batchReads(db)
  return {
    async responseOf(gameId, batchId, since, unit) {
      if (!unit) {
        // Outside a unit: what is committed, on the read-only connection, without waiting for
        // the batches being written (it may not be durable yet: see IngestStore.responseOf);
        // without one, through Kysely, which waits for a transaction on the one connection.
        const committed = reader()
        if (!committed) return reads.responseOutside(gameId, batchId, since)
        findCommitted ??= committed.prepare(BATCH_SQL.find).pluck()
        return findCommitted.get(gameId, batchId, since) as string | undefined
      }
      assertOpenOn(unit, sqlite)
      return statements.findBatch.get(gameId, batchId, since) as string | undefined
    },
    async record(gameId, batchId, response, receivedAt, unit) {
      assertOpenOn(unit, sqlite)
      statements.insertBatch.run(gameId, batchId, response, receivedAt)
    },
    pruneBatches: reads.pruneBatches,
  }
}
