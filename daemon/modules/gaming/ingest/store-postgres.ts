/**
 * The PostgreSQL store of the batch_id records (the port and the SQL text: store.ts): the two
 * statements of the unit of work run on its transaction, the rest through Kysely.
 */
import type { Kysely } from 'kysely'
import type { Database } from '../../../db/schema.js'
import { numbered, query } from '../../../db/postgres-rows.js'
import { kyselyOf } from '../../../db/unit-of-work.js'
import { BATCH_SQL, batchReads, type IngestStore } from './store.js'

export function createPostgresIngestStore(db: Kysely<Database>): IngestStore {
  const find = numbered(BATCH_SQL.find)
  const insert = numbered(BATCH_SQL.insert)
  const reads = batchReads(db)
  return {
    async responseOf(gameId, batchId, since, unit) {
      if (!unit) return reads.responseOutside(gameId, batchId, since)
      const rows = await query<{ response: string }>(kyselyOf(unit), find, [gameId, batchId, since])
      return rows[0]?.response
    },
    async record(gameId, batchId, response, receivedAt, unit) {
      await query(kyselyOf(unit), insert, [gameId, batchId, response, receivedAt])
    },
    pruneBatches: reads.pruneBatches,
  }
}
