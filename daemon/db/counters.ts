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
