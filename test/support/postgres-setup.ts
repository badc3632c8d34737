/**
 * The vitest globalSetup of `npm run test:pg` (LINKD_TEST_ENGINE=postgres): one PostgreSQL
 * cluster for the run, with a template database migrated once; the workers, started after this,
 * inherit LINKD_TEST_POSTGRES and clone their databases from the template. A no-op on SQLite.
 */
import { openDatabase } from '../../daemon/db/open.js'
import { migrate } from '../../daemon/db/migrate.js'
import { onPostgres, startPostgres, TEMPLATE_DB } from './postgres.js'
import pg from 'pg'

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (!onPostgres) return undefined
  const server = await startPostgres()
  const client = new pg.Client({ connectionString: server.urlOf('postgres') })
  await client.connect()
  await client.query(`CREATE DATABASE ${TEMPLATE_DB}`)
  await client.end()
  const db = openDatabase(server.urlOf(TEMPLATE_DB))
  await migrate(db, 0)
  await db.close()
  process.env.LINKD_TEST_POSTGRES = server.urlOf('')
  return () => server.stop()
}
