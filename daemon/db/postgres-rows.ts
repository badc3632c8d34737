/**
 * The statements of the PostgreSQL hot-path stores (a gaming batch): one statement per table per
 * batch, its rows sent as one array parameter per column and expanded by `unnest()`, instead of
 * a round trip per row. Store files only; every statement runs through Kysely (a transaction's
 * or the pool's connection), so it joins the unit of work it is given.
 */
import { CompiledQuery, type QueryResult } from 'kysely'

/** The PostgreSQL type of a column's array parameter (integers travel as int8). */
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

/** `unnest($2::text[], $3::int8[], …) AS r(a, b, …)`: the arrays from parameter `first` on. */
function unnest<T>(columns: readonly Column<T>[], first: number): string {
  const arrays = columns.map(([, type], i) => `$${first + i}::${type}[]`).join(', ')
  return `unnest(${arrays}) AS r(${columns.map(([name]) => name).join(', ')})`
}

/** One array per column, in the columns' order. */
function arraysOf<T>(rows: readonly T[], columns: readonly Column<T>[]): unknown[][] {
  return columns.map(([, , value]) => rows.map(value))
}

/** A statement over a game's rows: does nothing for no rows. */
export type RowsStatement<T> = (db: Executor, gameId: string, rows: readonly T[]) => Promise<void>

/**
 * `INSERT INTO table (game_id, columns…) SELECT $1, r.* FROM unnest(…)` and `tail` (an
 * `ON CONFLICT` clause): all of a game's rows in one statement.
 */
export function insertRows<T>(table: string, columns: readonly Column<T>[], tail = ''): RowsStatement<T> {
  const names = columns.map(([name]) => name).join(', ')
  const sql = `INSERT INTO ${table} (game_id, ${names}) SELECT $1, r.* FROM ${unnest(columns, 2)} ${tail}`
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
