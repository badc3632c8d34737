/**
 * The upsert of an aggregate row: INSERT the row, or on a conflict with the stored one ADD each
 * counter to it (a counter given a ceiling stops there). Portable SQL (SQLite and PostgreSQL both
 * have ON CONFLICT … DO UPDATE with `excluded`). The statement's parameters are `keys` then
 * `counters`, in the order given; `keys` name the row (the columns of its unique index, in any
 * order).
 */
export function addCountersSql(
  table: string,
  keys: readonly string[],
  counters: readonly string[],
  ceilings: Ceilings = {},
): string {
  const columns = [...keys, ...counters]
  return (
    `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ` +
    addCountersOnConflict(table, keys, counters, ceilings)
  )
}

/** Counters that saturate: the highest value each may reach (an integer). */
export type Ceilings = Readonly<Record<string, number>>

/**
 * The clause that adds the counters of an inserted row to the stored row with the same `keys`
 * (both engines; the multi-row statements of the PostgreSQL stores end with it too).
 */
export function addCountersOnConflict(
  table: string,
  keys: readonly string[],
  counters: readonly string[],
  ceilings: Ceilings = {},
): string {
  const sum = (c: string) => {
    const max = ceilings[c]
    if (max === undefined) return `${table}.${c} + excluded.${c}`
    if (!Number.isSafeInteger(max)) throw new Error(`the ceiling of ${c} must be a safe integer`)
    // Compared before adding: the addition itself never overflows.
    return `CASE WHEN ${table}.${c} > ${max} - excluded.${c} THEN ${max} ELSE ${table}.${c} + excluded.${c} END`
  }
  const sums = counters.map((c) => `${c} = ${sum(c)}`).join(', ')
  return `ON CONFLICT (${keys.join(', ')}) DO UPDATE SET ${sums}`
}
