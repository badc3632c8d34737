/** List paging shared by the `list`-like verbs: the `--page`/`--limit` flags, the query, the footer. */
import { Option, type Command } from 'commander'
import { PAGE_SIZES } from '../contract/limits.js'
import type { Ctx } from './context.js'
import { note } from './output.js'
import { intArg } from './parse.js'

/** `--page` and `--limit` as commander parses them (`--limit` is one of the API's page sizes). */
export interface PageFlags {
  page?: number
  limit?: string | number
}

/** Adds `--page <n>` and `--limit <n>` to a list command. */
export function pageOptions(cmd: Command): Command {
  return cmd
    .option('--page <n>', 'page number, from 1', intArg(1))
    .addOption(new Option('--limit <n>', 'page size').choices(PAGE_SIZES.map(String)))
}

/** The page and limit of a list request, for the flags given. */
export function pageQuery(opts: PageFlags): { page?: number; limit?: number } {
  return {
    ...(opts.page !== undefined ? { page: opts.page } : {}),
    ...(opts.limit !== undefined ? { limit: Number(opts.limit) } : {}),
  }
}

/** On a terminal, which rows of how many were shown and how to see the next page. */
export function pageFooter(
  ctx: Ctx,
  page: { page: number; perPage: number; total: number; hasMore: boolean },
  shown: number,
): void {
  if (!ctx.isTTY) return
  const first = shown === 0 ? 0 : (page.page - 1) * page.perPage + 1
  const more = page.hasMore ? `; next: --page ${page.page + 1}` : ''
  note(ctx, `Showing ${first}-${first + Math.max(0, shown - 1)} of ${page.total}${more}`)
}
