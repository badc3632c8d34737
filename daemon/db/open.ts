import { dirname } from 'node:path'
import SQLite from 'better-sqlite3'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import type { Database } from './schema.js'
import { createPrivateDir, secureDatabaseFiles } from './files.js'
import { createReadPool, type ReadPool } from './read-pool.js'
import { CachingSqliteDialect } from './sqlite-dialect.js'

interface OpenDb {
  /** The Kysely handle every store uses. */
  kysely: Kysely<Database>
  /** Database files found with modes looser than 0600 and tightened on open (to report once). */
  tightened: readonly string[]
  close(): Promise<void>
}

/** The embedded engine: one SQLite file (or `:memory:`). */
export interface SqliteDb extends OpenDb {
  dialect: 'sqlite'
  /** The better-sqlite3 connection: for migrations, backups and benchmarked prepared statements. */
  sqlite: SQLite.Database
  /**
   * A second, read-only connection to the file (opened on first use; none for `:memory:`): for
   * a hot read that must not wait while the one connection is busy in a transaction (the WAL
   * lets it read what was committed meanwhile). What it reads may not be durable yet.
   */
  reader(): SQLite.Database | undefined
  /**
   * Worker threads with read-only connections to the file (started on first query; none for
   * `:memory:`): for a long read (a funnel) that must not hold the event loop (read-pool.ts).
   */
  readPool(): ReadPool | undefined
}

/** The scale-out engine: a PostgreSQL database shared by any number of linkd processes. */
export interface PostgresDb extends OpenDb {
  dialect: 'postgres'
  /** The connection pool Kysely draws from (migrations, LISTEN/NOTIFY, COPY). */
  pool: pg.Pool
  /** Not on PostgreSQL: reading it throws, so that SQLite-only code fails loudly, not subtly. */
  readonly sqlite: never
}

/** An open database of either engine: code that needs the driver narrows on `dialect`. */
export type Db = SqliteDb | PostgresDb

export function isPostgresUrl(databaseUrl: string): boolean {
  return /^postgres(ql)?:\/\//.test(databaseUrl)
}

/** `sqlite:/path/file.db`, `sqlite::memory:`, a bare path or `:memory:`. */
export function sqlitePath(databaseUrl: string): string {
  if (isPostgresUrl(databaseUrl)) throw new Error('this command needs a SQLite database, not PostgreSQL')
  return databaseUrl.replace(/^sqlite:(\/\/)?/, '') || ':memory:'
}

/** Opens either engine by URL: `postgres://…` or `postgresql://…` is PostgreSQL, anything else SQLite. */
export function openDatabase(databaseUrl: string): Db {
  return isPostgresUrl(databaseUrl) ? openPostgres(databaseUrl) : openSqlite(sqlitePath(databaseUrl))
}

function openSqlite(path: string): SqliteDb {
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
  // Pages the ingestion touches (player rows, sessions, their indexes) stay in the connection's
  // cache: with SQLite's default of 2 MB each batch read them again through the OS.
  sqlite.pragma('cache_size = -32768')
  const kysely = new Kysely<Database>({ dialect: new CachingSqliteDialect(sqlite) })
  let closed = false
  let reader: SQLite.Database | undefined
  let readPool: ReadPool | undefined
  return {
    kysely,
    sqlite,
    dialect: 'sqlite',
    tightened,
    reader() {
      if (path === ':memory:' || closed) return undefined
      return (reader ??= new SQLite(path, { readonly: true }))
    },
    readPool() {
      if (path === ':memory:' || closed) return undefined
      return (readPool ??= createReadPool(path))
    },
    async close() {
      if (closed) return
      closed = true
      reader?.close()
      await readPool?.close()
      await kysely.destroy() // closes the better-sqlite3 handle too
    },
  }
}

const INT8_OID = 20
const NUMERIC_OID = 1700

/**
 * Every integer column is BIGINT (Unix-ms timestamps, micro-units of money) and SUM/COUNT answer
 * int8 or numeric, which pg returns as strings by default. Ours stay below 2^53, so they are read
 * as numbers, as better-sqlite3 reads them; a value past that throws rather than losing digits.
 */
function toNumber(text: string): number {
  const n = Number(text)
  if (!Number.isSafeInteger(n) && Number.isInteger(n)) throw new Error(`integer ${text} is beyond 2^53`)
  return n
}

const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID || oid === NUMERIC_OID) return toNumber
    return pg.types.getTypeParser(oid, format as 'text')
  },
}

/** Connections per process: the pool serves requests, jobs and the webhook sender. */
const POOL_SIZE = 10

function openPostgres(databaseUrl: string): PostgresDb {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: POOL_SIZE, types })
  // An idle client's error (the server restarted, the connection was cut) must not crash the
  // process: the pool drops that client and the next query opens a new one.
  pool.on('error', () => {})
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
  let closed = false
  return {
    kysely,
    pool,
    dialect: 'postgres',
    tightened: [],
    get sqlite(): never {
      throw new Error('this code path needs SQLite; the database is PostgreSQL')
    },
    async close() {
      if (closed) return
      closed = true
      await kysely.destroy()
      // Kysely ends the pool only if it ever used it; migrations and LISTEN use the pool directly.
      if (!pool.ended) await pool.end()
    },
  }
}
