/**
 * The multi-row statements of the PostgreSQL hot-path stores (a click flush, a gaming batch): one
 * statement per table and kind of write, its rows sent as one array parameter per column and
 * expanded by `unnest()` (no 65,535-parameter ceiling, one plan whatever the row count) instead
 * of a round trip per row. Two kinds: a game's rows (`game_id` is `$1`, `insertRows`,
 * `updateRows`) and rows of any owner (`insertManyRows`, `addCounterRows`: the click store's).
 * Store files only; every statement runs through Kysely (a transaction's or the pool's
 * connection), so it joins the unit of work it is given.
 */
import { CompiledQuery, type QueryResult } from 'kysely'
import { addCountersOnConflict } from './counters.js'

/**
 * The PostgreSQL type of a column's array parameter. Integers travel as int8 whatever the column
 * (PostgreSQL casts on assignment to an `integer` column), reals as float8 (`double precision`).
 */
export type PgType = 'text' | 'int8' | 'float8'

/** A column of a multi-row statement: its name, its type and how a row gives its value. */
export type Column<T> = readonly [name: string, type: PgType, value: (row: T) => unknown]

/** What runs a statement: a Kysely handle (a transaction's, or the pool's). */
export interface Executor {
  executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>>
}

/** Runs one statement (PostgreSQL placeholders `$1`…) on `db`, a transaction or the pool. */
export async function query<R>(db: Executor, sql: string, params: readonly unknown[]): Promise<R[]> {
  return (await db.executeQuery<R>(CompiledQuery.raw(sql, [...params]))).rows
}

/** SQL text written with `?` placeholders (SQLite's, shared), numbered for PostgreSQL: `$1`, `$2`… */
export function numbered(sql: string): string {
  let n = 0
  return sql.replace(/\?/g, () => `$${++n}`)
}

const namesOf = <T>(columns: readonly Column<T>[]) => columns.map(([name]) => name)

/** `unnest($2::text[], $3::int8[], …) AS r(a, b, …)`: the arrays from parameter `first` on. */
function unnest<T>(columns: readonly Column<T>[], first: number): string {
  const arrays = columns.map(([, type], i) => `$${first + i}::${type}[]`).join(', ')
  return `unnest(${arrays}) AS r(${namesOf(columns).join(', ')})`
}

/** One array per column, in the columns' order. */
function arraysOf<T>(rows: readonly T[], columns: readonly Column<T>[]): unknown[][] {
  return columns.map(([, , value]) => rows.map(value))
}

/**
 * `INSERT INTO table ([game_id,] columns…) SELECT [$1,] r.* FROM unnest(…) tail`: rows are
 * inserted in array order; a game's statement takes the game id as `$1`.
 */
function insertSql<T>(table: string, ofGame: boolean, columns: readonly Column<T>[], tail: string): string {
  const names = namesOf(columns).join(', ')
  const [gameColumn, gameValue, first] = ofGame ? ['game_id, ', '$1, ', 2] : ['', '', 1]
  return `INSERT INTO ${table} (${gameColumn}${names}) SELECT ${gameValue}r.* FROM ${unnest(columns, first)} ${tail}`
}

/** A statement over a game's rows: does nothing for no rows. */
export type RowsStatement<T> = (db: Executor, gameId: string, rows: readonly T[]) => Promise<void>

/**
 * `INSERT INTO table (game_id, columns…) SELECT $1, r.* FROM unnest(…)` and `tail` (an
 * `ON CONFLICT` clause): all of a game's rows in one statement.
 */
export function insertRows<T>(table: string, columns: readonly Column<T>[], tail = ''): RowsStatement<T> {
  const sql = insertSql(table, true, columns, tail)
  return async (db, gameId, rows) => {
    if (rows.length) await query(db, sql, [gameId, ...arraysOf(rows, columns)])
  }
}

/**
 * `UPDATE table SET set… FROM unnest(…) WHERE game_id = $1 AND keys…`: each row updates the
 * row of the game its `keys` name (assumed unique within `rows`).
 */
export function updateRows<T>(
  table: string,
  set: readonly Column<T>[],
  keys: readonly Column<T>[],
): RowsStatement<T> {
  const columns = [...set, ...keys]
  const sql =
    `UPDATE ${table} AS t SET ${set.map(([name]) => `${name} = r.${name}`).join(', ')} ` +
    `FROM ${unnest(columns, 2)} WHERE t.game_id = $1 AND ` +
    keys.map(([name]) => `t.${name} = r.${name}`).join(' AND ')
  return async (db, gameId, rows) => {
    if (rows.length) await query(db, sql, [gameId, ...arraysOf(rows, columns)])
  }
}

/** A statement over rows of any owner: the rows its `RETURNING` gives (none for no rows). */
export type ManyRowsStatement<T, R = never> = (db: Executor, rows: readonly T[]) => Promise<R[]>

/**
 * `INSERT INTO table (columns…) SELECT r.* FROM unnest(…)` and `tail` (an `ON CONFLICT` and/or
 * `RETURNING` clause): rows of any owner in one statement.
 */
export function insertManyRows<T, R = never>(
  table: string,
  columns: readonly Column<T>[],
  tail = '',
): ManyRowsStatement<T, R> {
  const sql = insertSql(table, false, columns, tail)
  return async (db, rows) => (rows.length ? query<R>(db, sql, arraysOf(rows, columns)) : [])
}

type Key = ReadonlyArray<unknown>

/** Orders rows by the values of their key columns (strings and numbers). */
export function byKey<T>(keys: readonly Column<T>[]): (a: T, b: T) => number {
  const keyOf = (row: T): Key => keys.map(([, , value]) => value(row))
  return (a, b) => {
    const [left, right] = [keyOf(a), keyOf(b)]
    for (let i = 0; i < left.length; i++)
      if (left[i] !== right[i]) return (left[i] as string) < (right[i] as string) ? -1 : 1
    return 0
  }
}

/**
 * `addCountersSql` (counters.ts) for many rows of any owner at once: INSERT each row or ADD its
 * `counters` to the stored row its `keys` name, then `returning` (a `RETURNING` clause). The rows
 * must name distinct keys (PostgreSQL refuses to update a row twice in one statement). They are
 * written in key order, so that concurrent writers (several linkd processes counting the same
 * rows) take their row locks in one order and wait for each other, never deadlock.
 */
export function addCounterRows<T, R = never>(
  table: string,
  keys: readonly Column<T>[],
  counters: readonly Column<T>[],
  returning = '',
): ManyRowsStatement<T, R> {
  const conflict = addCountersOnConflict(table, namesOf(keys), namesOf(counters))
  const insert = insertManyRows<T, R>(table, [...keys, ...counters], `${conflict} ${returning}`)
  const order = byKey(keys)
  return (db, rows) => insert(db, [...rows].sort(order))
}
