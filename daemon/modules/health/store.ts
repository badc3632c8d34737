import { sql } from 'kysely'
import type { Db } from '../../db/open.js'
import { pendingMigrations } from '../../db/migrate.js'

/** What the readiness probe asks of the database. */
export interface HealthStore {
  /** Resolves when the database answers a trivial query; rejects otherwise. */
  ping(): Promise<void>
  /** Migrations shipped with this build and not applied to the database yet. */
  pendingMigrations(): Promise<number>
}

/** Both engines: the probe is portable SQL. */
export function createHealthStore(db: Db): HealthStore {
  return {
    async ping() {
      await sql`SELECT 1`.execute(db.kysely)
    },
    async pendingMigrations() {
      return (await pendingMigrations(db)).length
    },
  }
}
