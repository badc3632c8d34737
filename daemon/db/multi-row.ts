/**
 * Multi-row statements of the PostgreSQL click store: every row of a flush in ONE statement per
 * table, each column's values sent as one array parameter and expanded by `unnest()` (no
 * 65,535-parameter ceiling, one plan whatever the row count). Store files only.
 */
import { addCountersOnConflict } from './counters.js'

/** A column of a multi-row statement: its name and its type on PostgreSQL. */
export type PgColumn = readonly [name: string, type: 'text' | 'integer' | 'bigint' | 'double precision']

/**
 * `INSERT INTO table (columns…) SELECT * FROM unnest($1::type[], …)`: parameters are the columns'
 * arrays in the order of `columns`; rows are inserted in array order.
 */
export function insertManySql(table: string, columns: readonly PgColumn[]): string {
  const arrays = columns.map(([, type], i) => `$${i + 1}::${type}[]`)
  return `INSERT INTO ${table} (${columns.map(([name]) => name).join(', ')}) SELECT * FROM unnest(${arrays.join(', ')})`
}

/**
 * `addCountersSql` (counters.ts) for many rows at once: parameters are `keys` then `counters`,
 * one array each. The rows must name distinct keys (PostgreSQL refuses to update a row twice in
 * one statement), and concurrent writers should pass them in one agreed order (by key) so that
 * their row locks are taken in that order and two flushes wait for each other, never deadlock.
 */
export function addCountersManySql(
  table: string,
  keys: readonly PgColumn[],
  counters: readonly PgColumn[],
): string {
  const names = (columns: readonly PgColumn[]) => columns.map(([name]) => name)
  return `${insertManySql(table, [...keys, ...counters])} ${addCountersOnConflict(table, names(keys), names(counters))}`
}
