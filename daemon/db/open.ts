import { dirname } from 'node:path'
import SQLite from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import type { Database } from './schema.js'
import { createPrivateDir, secureDatabaseFiles } from './files.js'

/** An open database: the Kysely handle every store uses, plus the raw driver for db/ internals. */
export interface Db {
  kysely: Kysely<Database>
  /** The better-sqlite3 connection: for migrations, backups and benchmarked prepared statements. */
  sqlite: SQLite.Database
  dialect: 'sqlite'
  /** Database files found with modes looser than 0600 and tightened on open (to report once). */
  tightened: readonly string[]
  close(): Promise<void>
}

/** `sqlite:/path/file.db`, `sqlite::memory:`, a bare path or `:memory:`. */
export function sqlitePath(databaseUrl: string): string {
  if (/^postgres(ql)?:\/\//.test(databaseUrl))
    throw new Error('PostgreSQL is not supported yet by this build; use a sqlite: database URL')
  return databaseUrl.replace(/^sqlite:(\/\/)?/, '') || ':memory:'
}

export function openDatabase(databaseUrl: string): Db {
  const path = sqlitePath(databaseUrl)
  let tightened: string[] = []
  if (path !== ':memory:') {
    createPrivateDir(dirname(path))
    tightened = secureDatabaseFiles(path)
  }
  const sqlite = new SQLite(path)
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('synchronous = NORMAL')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('busy_timeout = 5000')
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) })
  let closed = false
  return {
    kysely,
    sqlite,
    dialect: 'sqlite',
    tightened,
    async close() {
      if (closed) return
      closed = true
      await kysely.destroy() // closes the better-sqlite3 handle too
    },
  }
}
