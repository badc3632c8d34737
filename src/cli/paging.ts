/**
 * List paging shared by the `list`-like verbs: the `--page`/`--limit`/`--all` flags, the walk
 * through the API's fixed page sizes (10, 20, 50, 100) for any other limit, and the note on
 * stderr when a list was cut ("showing 20 of 3,029").
 */
import { Option, type Command } from 'commander'
import { PAGE_SIZES } from '../contract/limits.js'
import type { PageOf } from '../contract/common.js'
import type { Ctx } from '../session/context.js'
import { UsageError } from '../session/exit-codes.js'
import { note } from './output.js'
import { intArg } from './parse.js'
import { createProgress } from './progress.js'

/** `--page`, `--limit` and `--all` as commander parses them. */
export interface PageFlags {
  page?: number
  /** Any positive number of rows (a string when parsed by older callers). */
  limit?: string | number
  all?: boolean
}

export type PageSize = (typeof PAGE_SIZES)[number]
/** One request of a list: what the API accepts. */
export interface PageRequest {
  page?: number
  limit?: PageSize
}

/** The largest page the API serves: walks use it to make as few requests as possible. */
const WALK_PAGE = Math.max(...PAGE_SIZES) as PageSize

/** Adds `--page <n>`, `--limit <n>` and `--all` to a list command. */
export function pageOptions(cmd: Command): Command {
  return cmd
    .option('--page <n>', 'page number, from 1 (pages of --limit rows)', intArg(1))
    .option('--limit <n>', 'number of rows (any positive number; default: the API page, 20)', intArg(1))
    .addOption(
      new Option('--all', 'fetch every row (a progress line on a terminal)').conflicts(['limit', 'page']),
    )
}

const isPageSize = (n: number): n is PageSize => (PAGE_SIZES as readonly number[]).includes(n)

/** The page and limit of one list request, for the flags given (a limit the API serves). */
export function pageQuery(opts: PageFlags): PageRequest {
  const limit = opts.limit === undefined ? undefined : Number(opts.limit)
  return {
    ...(opts.page !== undefined ? { page: opts.page } : {}),
    ...(limit !== undefined && isPageSize(limit) ? { limit } : {}),
  }
}

/**
 * The rows the flags ask for, as one page object (the last API page's extra fields kept, e.g.
 * delivery totals): one request when the limit is a page size the API serves (or none is given);
 * otherwise the pages of 100 that cover rows (page-1)*limit+1 … page*limit; with --all every
 * page, with a progress line on stderr when it is a terminal.
 */
export async function fetchList<T, P extends PageOf<T>>(
  ctx: Ctx,
  flags: PageFlags,
  fetchPage: (query: PageRequest) => Promise<P>,
): Promise<P> {
  const limit = flags.limit === undefined ? undefined : Number(flags.limit)
  if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 1))
    throw new UsageError('--limit must be a positive whole number')
  if (flags.all) return fetchEverything(ctx, fetchPage)
  if (limit === undefined || isPageSize(limit)) return fetchPage(pageQuery(flags))
  const offset = ((flags.page ?? 1) - 1) * limit
  let apiPage = Math.floor(offset / WALK_PAGE) + 1
  const skip = offset % WALK_PAGE
  const rows: T[] = []
  let last: P
  do {
    last = await fetchPage({ page: apiPage, limit: WALK_PAGE })
    rows.push(...last.data)
    apiPage++
  } while (last.hasMore && last.data.length > 0 && rows.length < skip + limit)
  const data = rows.slice(skip, skip + limit)
  return {
    ...last,
    data,
    page: flags.page ?? 1,
    perPage: limit,
    hasMore: offset + data.length < last.total,
  }
}

/** Every row of a list, in pages of 100; `onPage` after each (rows so far, the page). */
export async function allRows<T, P extends PageOf<T>>(
  fetchPage: (query: PageRequest) => Promise<P>,
  onPage?: (rows: number, last: P) => void,
): Promise<{ rows: T[]; last: P }> {
  const rows: T[] = []
  let last: P
  let page = 1
  do {
    last = await fetchPage({ page, limit: WALK_PAGE })
    rows.push(...last.data)
    onPage?.(rows.length, last)
    page++
  } while (last.hasMore && last.data.length > 0)
  return { rows, last }
}

async function fetchEverything<T, P extends PageOf<T>>(
  ctx: Ctx,
  fetchPage: (query: PageRequest) => Promise<P>,
): Promise<P> {
  const progress = createProgress(ctx.stderr, { label: 'Fetching', enabled: ctx.stderr.isTTY === true })
  let walked: { rows: T[]; last: P }
  try {
    walked = await allRows(fetchPage, (n, last) => progress.update(n, Math.max(last.total, n), 'rows'))
  } finally {
    progress.finish()
  }
  const { rows, last } = walked
  return {
    ...last,
    data: rows,
    page: 1,
    perPage: rows.length,
    total: Math.max(last.total, rows.length),
    hasMore: false,
  }
}

/** `3029` → `3,029`. */
export function count(n: number): string {
  return n.toLocaleString('en-US')
}

/**
 * On stderr (never with --json), when rows were left out: "showing 20 of 3,029", or the range
 * and the next page past page 1. Nothing when every row was shown.
 */
export function cutNote(
  ctx: Ctx,
  page: { page: number; perPage: number; total: number },
  shown: number,
): void {
  if (ctx.json) return
  const first = (page.page - 1) * page.perPage + 1
  if (page.page <= 1 && shown >= page.total) return
  if (page.page <= 1) {
    note(ctx, `showing ${count(shown)} of ${count(page.total)}; more with --limit <n> or --all`)
    return
  }
  const range = shown === 0 ? 'no rows' : `rows ${count(first)}-${count(first + shown - 1)}`
  const next = first + shown - 1 < page.total && shown > 0 ? `; next: --page ${page.page + 1}` : ''
  note(ctx, `showing ${range} of ${count(page.total)}${next}`)
}
