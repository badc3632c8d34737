/**
 * Kysely's SQLite dialect with two changes to its driver, both measured on the request paths:
 * - prepared statements are kept by SQL text (a bounded cache, least recently used out): Kysely's
 *   own driver prepares every statement on every call, a few % of the CPU of every request;
 * - waiters for the one connection queue in order and only the next one wakes (its driver wakes
 *   every waiter on each release, and all but one go back to waiting).
 * PRAGMA statements are never cached: some take effect when prepared.
 */
import type SQLite from 'better-sqlite3'
import {
  SqliteDialect,
  SqliteDriver,
  SelectQueryNode,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
} from 'kysely'

/** Statements kept per connection: the distinct SQL texts of linkd's queries fit many times over. */
export const STATEMENT_CACHE_SIZE = 1_000

export class CachingSqliteDialect extends SqliteDialect {
  readonly #sqlite: SQLite.Database
  constructor(sqlite: SQLite.Database) {
    super({ database: sqlite })
    this.#sqlite = sqlite
  }
  override createDriver(): Driver {
    return new CachingSqliteDriver(this.#sqlite)
  }
}

class CachingSqliteDriver extends SqliteDriver {
  readonly #sqlite: SQLite.Database
  readonly #connection: CachingConnection
  readonly #waiters: Array<() => void> = []
  #locked = false

  constructor(sqlite: SQLite.Database) {
    super({ database: sqlite })
    this.#sqlite = sqlite
    this.#connection = new CachingConnection(sqlite)
  }

  override async init(): Promise<void> {}

  override async acquireConnection(): Promise<DatabaseConnection> {
    if (this.#locked) await new Promise<void>((resolve) => this.#waiters.push(resolve))
    else this.#locked = true
    return this.#connection
  }

  override async releaseConnection(): Promise<void> {
    const next = this.#waiters.shift()
    // The connection passes straight to the next waiter (still locked), or is free.
    if (next) next()
    else this.#locked = false
  }

  override async destroy(): Promise<void> {
    this.#sqlite.close()
  }
}

class CachingConnection implements DatabaseConnection {
  readonly #statements = new Map<string, SQLite.Statement>()
  constructor(readonly sqlite: SQLite.Database) {}

  #prepare(sql: string): SQLite.Statement {
    const cached = this.#statements.get(sql)
    if (cached) {
      // Most recently used last: the first key is the one to drop.
      this.#statements.delete(sql)
      this.#statements.set(sql, cached)
      return cached
    }
    const stmt = this.sqlite.prepare(sql)
    if (/^\s*pragma\b/i.test(sql)) return stmt
    if (this.#statements.size >= STATEMENT_CACHE_SIZE)
      this.#statements.delete(this.#statements.keys().next().value!)
    this.#statements.set(sql, stmt)
    return stmt
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const stmt = this.#prepare(compiled.sql)
    const parameters = compiled.parameters as unknown[]
    if (stmt.reader) return { rows: stmt.all(parameters) as R[] }
    const { changes, lastInsertRowid } = stmt.run(parameters)
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] }
  }

  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(compiled.query))
      throw new Error('Sqlite driver only supports streaming of select queries')
    // A statement of its own: a cached one would be busy while the stream is read.
    const iter = this.sqlite.prepare(compiled.sql).iterate(compiled.parameters as unknown[])
    for (const row of iter) yield { rows: [row as R] }
  }
}
