import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { migrate } from '../../../daemon/db/migrate.js'
import { openDatabase } from '../../../daemon/db/open.js'
import { admin, postgresOnly } from '../../support/postgres.js'

/**
 * PostgreSQL databases take their server's locale, often a linguistic one; linkd's text must
 * still order as bytes, as on SQLite (runs under npm run test:pg).
 */
describe.runIf(postgresOnly())('text order on PostgreSQL', () => {
  it('a database created with a linguistic locale orders linkd text as bytes once migrated', async () => {
    const server = process.env.LINKD_TEST_POSTGRES!
    const name = `t_icu_${process.pid}_${Math.random().toString(36).slice(2, 8)}`
    await admin(
      server,
      `CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'`,
    )
    const db = openDatabase(`${server}${name}`)
    try {
      const order = async (table: string) =>
        (await sql<{ x: string }>`SELECT x FROM ${sql.raw(table)} ORDER BY x`.execute(db.kysely)).rows.map(
          (r) => r.x,
        )
      // The database's own order is linguistic: lower case first, punctuation ignored.
      await sql`CREATE TEMPORARY TABLE probe (x TEXT)`.execute(db.kysely)
      await sql`INSERT INTO probe VALUES ('b'), ('B'), ('_x'), ('a'), ('A')`.execute(db.kysely)
      expect(await order('probe')).not.toEqual(['A', 'B', '_x', 'a', 'b'])

      await migrate(db, 0)
      const loose = await sql<{ table_name: string; column_name: string }>`
        SELECT c.table_name, c.column_name FROM information_schema.columns c
        JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
        WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' AND c.data_type = 'text'
          AND c.collation_name IS DISTINCT FROM 'C'`.execute(db.kysely)
      expect(loose.rows).toEqual([])
      await sql`INSERT INTO organizations (id, name, plan, created_at, updated_at)
        VALUES ('b', 'b', 'free', 0, 0), ('B', 'B', 'free', 0, 0), ('_x', '_x', 'free', 0, 0),
               ('a', 'a', 'free', 0, 0), ('A', 'A', 'free', 0, 0)`.execute(db.kysely)
      const ids = await sql<{ id: string }>`SELECT id FROM organizations ORDER BY id`.execute(db.kysely)
      expect(ids.rows.map((r) => r.id)).toEqual(['A', 'B', '_x', 'a', 'b'])
      const after = await sql<{
        id: string
      }>`SELECT id FROM organizations WHERE id > 'B' ORDER BY id`.execute(db.kysely)
      expect(after.rows.map((r) => r.id)).toEqual(['_x', 'a', 'b'])
      // Migrating again finds nothing left to change.
      expect(await migrate(db, 0)).toEqual([])
    } finally {
      await db.close()
      await admin(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    }
  })
})
