/** `linkctl links list`: one page of short links, filtered and sorted. */
import { Option, type Command } from 'commander'
import {
  LINK_SORT_FIELDS,
  LINK_STATUSES,
  PAGE_SIZES,
  SORT_ORDERS,
  type LinkStatus,
} from '../../../contract/limits.js'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../context.js'
import { emit, note, printRows } from '../../output.js'
import { intArg } from '../../parse.js'
import { linkColumns } from './shared.js'

export interface ListLinksOpts {
  search?: string
  status?: LinkStatus
  tag?: string
  sort?: (typeof LINK_SORT_FIELDS)[number]
  order?: (typeof SORT_ORDERS)[number]
  page?: number
  limit?: string | number
}

export async function runLinksList(opts: ListLinksOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const page = await (
    await ctx.client()
  ).links.list({
    ...(opts.page !== undefined ? { page: opts.page } : {}),
    ...(opts.limit !== undefined ? { limit: Number(opts.limit) } : {}),
    ...(opts.search ? { search: opts.search } : {}),
    ...(opts.status ? { status: opts.status } : {}),
    ...(opts.tag ? { tag: opts.tag } : {}),
    ...(opts.sort ? { sortBy: opts.sort } : {}),
    ...(opts.order ? { sortOrder: opts.order } : {}),
  })
  await emit(ctx, page, async () => {
    if (page.data.length === 0 && ctx.isTTY) return note(ctx, 'No links match.')
    await printRows(ctx, page.data, linkColumns(ctx.isTTY))
    if (!ctx.isTTY) return
    const first = page.data.length === 0 ? 0 : (page.page - 1) * page.perPage + 1
    const more = page.hasMore ? `; next: --page ${page.page + 1}` : ''
    note(ctx, `Showing ${first}-${first + Math.max(0, page.data.length - 1)} of ${page.total}${more}`)
  })
}

export function register(links: Command): void {
  const list = links.command('list').alias('ls').description('list short links')
  list
    .option('--search <text>', 'match title, short code or destination URL')
    .addOption(new Option('--status <status>', 'only links with this status').choices(LINK_STATUSES))
    .option('--tag <tag>', 'only links with this tag')
    .addOption(new Option('--sort <field>', 'sort by').choices(LINK_SORT_FIELDS))
    .addOption(new Option('--order <order>', 'sort order').choices(SORT_ORDERS))
    .option('--page <n>', 'page number, from 1', intArg(1))
    .addOption(new Option('--limit <n>', 'page size').choices(PAGE_SIZES.map(String)))
  jsonOption(list).action(action<ListLinksOpts>((_args, opts, ctx) => runLinksList(opts, ctx)))
}
