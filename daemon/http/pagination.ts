import { DEFAULT_PAGE_SIZE, type PageOf, type PageQuery } from '../../src/contract/common.js'

export interface PageParams {
  page: number
  perPage: number
  offset: number
}

/** `limit` and its alias `perPage` (validated to 10/20/50/100 by the schema); default 20. */
export function pageParams(q: PageQuery): PageParams {
  const page = q.page ?? 1
  const perPage = q.limit ?? q.perPage ?? DEFAULT_PAGE_SIZE
  return { page, perPage, offset: (page - 1) * perPage }
}

export function pageOf<T>(data: T[], total: number, p: PageParams): PageOf<T> {
  return { data, total, page: p.page, perPage: p.perPage, hasMore: p.offset + data.length < total }
}
