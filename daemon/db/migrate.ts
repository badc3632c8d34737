import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { packageRoot } from '../../src/version.js'
import type { Db } from './open.js'

/** The SQL files ship with the package (also when the daemon runs from the bundle). */
const migrationsDir = () => join(packageRoot(), 'daemon', 'db', 'migrations')

export interface Migration {
  version: number
  name: string
  sql: string
}

export function loadMigrations(dir = migrationsDir()): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f) => ({
      version: Number(f.slice(0, 4)),
      name: f.replace(/\.sql$/, ''),
      sql: readFileSync(join(dir, f), 'utf8'),
    }))
}

function ensureTable(db: Db): void {
  db.sqlite.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)',
  )
}

export function appliedVersions(db: Db): Set<number> {
  ensureTable(db)
  const rows = db.sqlite.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]
  return new Set(rows.map((r) => r.version))
}

/** Versions on disk that the database has not applied yet. */
export function pendingMigrations(db: Db, migrations = loadMigrations()): Migration[] {
  const done = appliedVersions(db)
  return migrations.filter((m) => !done.has(m.version))
}

/** Applies pending migrations in order, each in its own transaction. Returns the names applied. */
export function migrate(db: Db, now: number, migrations = loadMigrations()): string[] {
  const applied: string[] = []
  for (const m of pendingMigrations(db, migrations)) {
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
