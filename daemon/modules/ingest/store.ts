/**
 * The ingestion's own data: the batch_id records of the 24 h idempotency window (game_batches).
 * The events of a batch belong to the gamedata module; a batch's record is written in the same
 * unit of work as its events (gamedata's `storeBatch` lends it to `responseOf` and `record`), so
 * these two are synchronous prepared statements, the SQLite hot path, kept inside this file.
 */
import type SQLite from 'better-sqlite3'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.js'
import { assertOpenOn, type UnitOfWork } from '../../db/unit-of-work.js'

export function createIngestStore(sqlite: SQLite.Database, db: Kysely<Database>) {
  // SQLite-only: prepared statements run inside gamedata's unit of work.
  const statements = {
    findBatch: sqlite
      .prepare('SELECT response FROM game_batches WHERE game_id = ? AND batch_id = ? AND received_at > ?')
      .pluck(),
    insertBatch: sqlite.prepare(
      `INSERT INTO game_batches (game_id, batch_id, response, received_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (game_id, batch_id) DO UPDATE SET response = excluded.response, received_at = excluded.received_at`,
    ),
  }
  return {
    /** The stored response of a batch_id seen since `since` (synchronous; inside `unit` when given). */
    responseOf(gameId: string, batchId: string, since: number, unit?: UnitOfWork): string | undefined {
      if (unit) assertOpenOn(unit, sqlite)
      return statements.findBatch.get(gameId, batchId, since) as string | undefined
    },
    /** Records a batch's response inside the batch's unit of work (synchronous). */
    record(gameId: string, batchId: string, response: string, receivedAt: number, unit: UnitOfWork): void {
      assertOpenOn(unit, sqlite)
      statements.insertBatch.run(gameId, batchId, response, receivedAt)
    },
    /** batch_id records past the idempotency window. */
    async pruneBatches(before: number): Promise<number> {
      return Number(
        (await db.deleteFrom('game_batches').where('received_at', '<=', before).executeTakeFirst())
          .numDeletedRows,
      )
    },
  }
}
export type IngestStore = ReturnType<typeof createIngestStore>
