import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { packageRoot, packageVersion } from '../../src/version.js'
import type { Db, PostgresDb, SqliteDb } from './open.js'

/** The SQL files ship with the package (also when the daemon runs from the bundle). */
const migrationsDir = () => join(packageRoot(), 'daemon', 'db', 'migrations')

export interface Migration {
  version: number
  name: string
  sql: string
}

const FILE = /^\d{4}_[a-z0-9_]+\.sql$/

/**
 * The numbered migrations, in order. Each file is portable SQL run by both engines; where a
 * statement must differ (a type whose meaning differs, such as REAL), `postgres/<same name>.sql`
 * holds PostgreSQL's text of that same migration, so both engines apply the same list.
 */
export function loadMigrations(dialect: Db['dialect'] = 'sqlite', dir = migrationsDir()): Migration[] {
  const overrides = join(dir, dialect)
  return readdirSync(dir)
    .filter((f) => FILE.test(f))
    .sort()
    .map((f) => {
      const own = join(overrides, f)
      return {
        version: Number(f.slice(0, 4)),
        name: f.replace(/\.sql$/, ''),
        sql: readFileSync(dialect !== 'sqlite' && existsSync(own) ? own : join(dir, f), 'utf8'),
      }
    })
}

/**
 * A database migrated by a newer linkd holds migrations this one does not know: an older linkd
 * would read and write tables it does not understand, so it refuses to start (or migrate) on it.
 */
function refuseNewer(applied: readonly Applied[], migrations: readonly Migration[]): void {
  const known = new Set(migrations.map((m) => m.version))
  const unknown = applied.filter((a) => !known.has(a.version)).sort((a, b) => a.version - b.version)
  if (unknown.length === 0) return
  throw new Error(
    `the database was migrated by a newer linkd (${unknown.map((a) => a.name).join(', ')} unknown to linkd ` +
      `${packageVersion()}): run that version, or restore the backup taken before the upgrade ` +
      `(docs/deployment.md, "Upgrading")`,
  )
}

interface Applied {
  version: number
  name: string
}

const CREATE_TABLE =
  'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)'

/** Versions on disk that the database has not applied yet. */
export async function pendingMigrations(
  db: Db,
  migrations = loadMigrations(db.dialect),
): Promise<Migration[]> {
  const applied = db.dialect === 'sqlite' ? sqliteApplied(db) : await postgresApplied(db)
  const done = new Set(applied.map((a) => a.version))
  return migrations.filter((m) => !done.has(m.version))
}

/** Applies pending migrations in order, each in its own transaction. Returns the names applied. */
export async function migrate(
  db: Db,
  now: number,
  migrations = loadMigrations(db.dialect),
): Promise<string[]> {
  return db.dialect === 'sqlite' ? migrateSqlite(db, now, migrations) : migratePostgres(db, now, migrations)
}

function sqliteApplied(db: SqliteDb): Applied[] {
  db.sqlite.exec(CREATE_TABLE)
  return db.sqlite.prepare('SELECT version, name FROM schema_migrations').all() as Applied[]
}

function migrateSqlite(db: SqliteDb, now: number, migrations: Migration[]): string[] {
  const before = sqliteApplied(db)
  refuseNewer(before, migrations)
  const done = new Set(before.map((a) => a.version))
  const applied: string[] = []
  for (const m of migrations.filter((x) => !done.has(x.version))) {
    db.sqlite.transaction(() => {
      db.sqlite.exec(m.sql)
      db.sqlite
        .prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)')
        .run(m.version, m.name, now)
    })()
    applied.push(m.name)
  }
  return applied
}

async function postgresApplied(db: PostgresDb): Promise<Applied[]> {
  const exists = await db.pool.query<{ t: string | null }>("SELECT to_regclass('schema_migrations') AS t")
  if (!exists.rows[0]?.t) return []
  return (await db.pool.query<Applied>('SELECT version, name FROM schema_migrations')).rows
}

/**
 * Text compares byte by byte on both engines. SQLite's default collation (BINARY) does; a
 * PostgreSQL database takes its server's locale when created (often en_US.UTF-8, which sorts 'a'
 * before 'B' and skips punctuation), so after the migrations every text column of linkd's tables
 * that is not "C" yet gets the "C" collation (its indexes are rebuilt; the rows are not rewritten).
 * Keyset pages, sorting and ranges then order ids, names and codes as SQLite does, whatever the
 * database was created with, and a column a later migration adds is covered at once.
 */
const BYTE_ORDER_TEXT = `DO $$
DECLARE
  col record;
BEGIN
  FOR col IN
    SELECT c.table_name, c.column_name
    FROM information_schema.columns c
    JOIN information_schema.tables t
      ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
    WHERE c.table_schema = current_schema() AND c.data_type = 'text'
      AND c.collation_name IS DISTINCT FROM 'C'
    ORDER BY c.table_name, c.ordinal_position
  LOOP
    EXECUTE format('ALTER TABLE %I ALTER COLUMN %I TYPE text COLLATE "C"', col.table_name, col.column_name);
  END LOOP;
END
$$`

/**
 * Several linkd processes may start at once on one database: the first takes a session-level
 * advisory lock and migrates, the others wait for it and then find nothing left to apply.
 */
const MIGRATION_LOCK = 7_346_001

async function migratePostgres(db: PostgresDb, now: number, migrations: Migration[]): Promise<string[]> {
  const client = await db.pool.connect()
  const applied: string[] = []
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK])
    try {
      await client.query(CREATE_TABLE)
      const rows = (await client.query<Applied>('SELECT version, name FROM schema_migrations')).rows
      refuseNewer(rows, migrations)
      const done = new Set(rows.map((r) => r.version))
      for (const m of migrations.filter((x) => !done.has(x.version))) {
        await client.query('BEGIN')
        try {
          await client.query(m.sql) // simple query protocol: several statements in one call
          await client.query(
            'INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)',
            [m.version, m.name, now],
          )
          await client.query('COMMIT')
        } catch (err) {
          await client.query('ROLLBACK')
          throw new Error(`migration ${m.name} failed: ${(err as Error).message}`, { cause: err })
        }
        applied.push(m.name)
      }
      await client.query(BYTE_ORDER_TEXT) // one statement: all columns or none
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK])
    }
  } finally {
    client.release()
  }
  return applied
}
