/**
 * The upsert of an aggregate row: INSERT the row, or on a conflict with the stored one ADD each
 * counter to it. Portable SQL (SQLite and PostgreSQL both have ON CONFLICT … DO UPDATE with
 * `excluded`). The statement's parameters are `keys` then `counters`, in the order given; `keys`
 * name the row (the columns of its unique index, in any order).
 */
export function addCountersSql(table: string, keys: readonly string[], counters: readonly string[]): string {
  const columns = [...keys, ...counters]
  const sums = counters.map((c) => `${c} = ${table}.${c} + excluded.${c}`).join(', ')
  return (
    `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ` +
    `ON CONFLICT (${keys.join(', ')}) DO UPDATE SET ${sums}`
  )
}

/** A column of a multi-row statement on PostgreSQL: its name and its type there. */
export type PgColumn = readonly [name: string, type: 'text' | 'integer' | 'bigint' | 'double precision']

/**
 * PostgreSQL's INSERT of many rows in one statement: each column's values arrive as ONE array
 * parameter ($1 … $n, in the order of `columns`) and `unnest` turns them back into rows, in array
 * order. The text is the same whatever the row count (no 65,535-parameter ceiling, one plan).
 */
export function insertManySql(table: string, columns: readonly PgColumn[]): string {
  const arrays = columns.map(([, type], i) => `$${i + 1}::${type}[]`)
  return `INSERT INTO ${table} (${columns.map(([name]) => name).join(', ')}) SELECT * FROM unnest(${arrays.join(', ')})`
}

/**
 * `addCountersSql` for many rows at once on PostgreSQL (see `insertManySql`; parameters: `keys`
 * then `counters`, one array each). The rows must name distinct keys (PostgreSQL refuses to update
 * a row twice in one statement), and concurrent writers should pass them in one agreed order (by
 * key) so that their row locks are taken in that order and two flushes never deadlock.
 */
export function addCountersManySql(
  table: string,
  keys: readonly PgColumn[],
  counters: readonly PgColumn[],
): string {
  const sums = counters.map(([c]) => `${c} = ${table}.${c} + excluded.${c}`).join(', ')
  return (
    `${insertManySql(table, [...keys, ...counters])} ` +
    `ON CONFLICT (${keys.map(([name]) => name).join(', ')}) DO UPDATE SET ${sums}`
  )
}
