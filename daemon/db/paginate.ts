import { sql, type Selectable, type SelectQueryBuilder } from 'kysely'
import type { Database } from './schema.js'

/** Tables listed newest first: they have an `id` and a `created_at` (Unix ms). */
export type NewestFirstTable = {
  [T in keyof Database]: Database[T] extends { id: unknown; created_at: unknown } ? T : never
}[keyof Database]

export interface PageParams {
  limit: number
  offset: number
}

/**
 * One page of a filtered list, newest first (ties broken by id, also descending), and the number
 * of rows matching the filter: the "page + total" every list endpoint answers. `filtered` is the
 * table's query with its WHERE clauses and nothing selected yet.
 */
export async function newestFirstPage<T extends NewestFirstTable>(
  filtered: SelectQueryBuilder<Database, T, object>,
  page: PageParams,
): Promise<{ rows: Selectable<Database[T]>[]; total: number }> {
  const [rows, count] = await Promise.all([
    filtered
      .selectAll()
      .orderBy(sql.ref('created_at'), 'desc')
      .orderBy(sql.ref('id'), 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    filtered.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ])
  // The rows are the table's own: tsc cannot resolve selectAll() over a generic table name.
  return { rows: rows as unknown as Selectable<Database[T]>[], total: Number(count.n) }
}
