/**
 * The unit of work: an open transaction that one store lends to another so that their writes
 * commit or roll back together (a click flush and links.clicks; a gaming batch and its batch_id
 * record). Services only pass it along: they see the opaque `UnitOfWork`, never the driver. The
 * helpers below are for store files only: the SQLite units (a raw connection, maybe with Kysely's
 * transaction on it) and the PostgreSQL unit (a Kysely transaction on one pooled client).
 */
import type SQLite from 'better-sqlite3'
import type { Kysely } from 'kysely'
import type { Database } from './schema.js'

/** An open transaction, opaque outside the stores. */
export interface UnitOfWork {
  readonly __brand: 'UnitOfWork'
}

/** The SQLite unit: the connection whose transaction is open, and Kysely's handle on it, if any. */
class SqliteUnitOfWork implements UnitOfWork {
  declare readonly __brand: 'UnitOfWork'
  constructor(
    readonly connection: SQLite.Database,
    readonly kysely: Kysely<Database> | null,
  ) {}
}

function sqliteUnit(unit: UnitOfWork): SqliteUnitOfWork {
  if (!(unit instanceof SqliteUnitOfWork)) throw new Error('not a unit of work of the SQLite stores')
  return unit
}

/**
 * A unit opened by Kysely (`db.transaction()`): statements through `kyselyOf` join it, and so do
 * prepared statements on `connection`, the one connection Kysely's transaction holds.
 */
export function kyselyUnit(connection: SQLite.Database, trx: Kysely<Database>): UnitOfWork {
  if (!trx.isTransaction) throw new Error('kyselyUnit: not a transaction')
  return new SqliteUnitOfWork(connection, trx)
}

/**
 * A unit opened on the raw connection (`sqlite.transaction(...)`, or `rawTransaction` in
 * raw-writes.ts): prepared statements only, no Kysely transaction.
 */
export function syncUnit(connection: SQLite.Database): UnitOfWork {
  return new SqliteUnitOfWork(connection, null)
}

/** The PostgreSQL unit: a Kysely transaction, on the one pooled client it holds. */
class PostgresUnitOfWork implements UnitOfWork {
  declare readonly __brand: 'UnitOfWork'
  constructor(readonly trx: Kysely<Database>) {}
}

/** A unit of a PostgreSQL store: every statement run through `kyselyOf(unit)` joins it. */
export function postgresUnit(trx: Kysely<Database>): UnitOfWork {
  if (!trx.isTransaction) throw new Error('postgresUnit: not a transaction')
  return new PostgresUnitOfWork(trx)
}

/** The Kysely transaction of a unit opened by Kysely (on either engine). */
export function kyselyOf(unit: UnitOfWork): Kysely<Database> {
  if (unit instanceof PostgresUnitOfWork) return unit.trx
  const u = sqliteUnit(unit)
  if (!u.kysely) throw new Error('kyselyOf: a synchronous unit of work has no Kysely transaction')
  return u.kysely
}

/**
 * Checks that `unit` is a transaction open on `connection` (where a store's prepared statements
 * run), so that a statement meant to join it cannot silently commit on its own.
 */
export function assertOpenOn(unit: UnitOfWork, connection: SQLite.Database): void {
  const u = sqliteUnit(unit)
  if (u.connection !== connection || !connection.inTransaction)
    throw new Error('the unit of work is not open on this connection')
}

/** Runs `fn` in a transaction, or in the caller's when `db` already is one. */
export function atomically<T>(db: Kysely<Database>, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn)
}
