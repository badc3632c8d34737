/**
 * The ingestion's own data: the batch_id records of the 24 h idempotency window (game_batches).
 * The events of a batch belong to the gamedata module; a batch's record is written in the same
 * transaction as its events (gamedata's `storeBatch` runs `responseOf` and `record` inside it), so
 * these two are synchronous prepared statements, the SQLite hot path, kept inside this file.
 */
import type SQLite from 'better-sqlite3'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.js'

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
    /** The stored response of a batch_id seen since `since` (synchronous: usable in a unit of work). */
    responseOf(gameId: string, batchId: string, since: number): string | undefined {
      return statements.findBatch.get(gameId, batchId, since) as string | undefined
    },
    /** Records a batch's response (synchronous: run inside the batch's unit of work). */
    record(gameId: string, batchId: string, response: string, receivedAt: number): void {
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
