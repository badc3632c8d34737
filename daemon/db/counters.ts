/**
 * The upsert of an aggregate row: INSERT the row, or on a conflict with the stored one ADD each
 * counter to it. Portable SQL (SQLite and PostgreSQL both have ON CONFLICT … DO UPDATE with
 * `excluded`). The statement's parameters are `keys` then `counters`, in the order given; `keys`
 * name the row (the columns of its unique index, in any order).
 */
export function addCountersSql(table: string, keys: readonly string[], counters: readonly string[]): string {
  const columns = [...keys, ...counters]
  return (
    `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ` +
    addCountersOnConflict(table, keys, counters)
  )
}

/**
 * The clause that adds the counters of an inserted row to the stored row with the same `keys`
 * (both engines; the multi-row statements of the PostgreSQL stores end with it too).
 */
export function addCountersOnConflict(
  table: string,
  keys: readonly string[],
  counters: readonly string[],
): string {
  const sums = counters.map((c) => `${c} = ${table}.${c} + excluded.${c}`).join(', ')
  return `ON CONFLICT (${keys.join(', ')}) DO UPDATE SET ${sums}`
}
