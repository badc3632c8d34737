/** `linkctl links list`: short links, filtered and sorted (`--limit` rows, or `--all`). */
import { Option, type Command } from 'commander'
import { LINK_SORT_FIELDS, LINK_STATUSES, SORT_ORDERS, type LinkStatus } from '../../../contract/limits.js'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { columnsOption, emit, note, printRows } from '../../output.js'
import { cutNote, fetchList, pageOptions, type PageFlags } from '../../paging.js'
import { linkColumns } from './display.js'

export interface ListLinksOpts extends PageFlags {
  search?: string
  status?: LinkStatus
  tag?: string
  sort?: (typeof LINK_SORT_FIELDS)[number]
  order?: (typeof SORT_ORDERS)[number]
}

export async function runLinksList(opts: ListLinksOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const client = await ctx.client()
  const page = await fetchList(ctx, opts, (query) =>
    client.links.list({
      ...query,
      ...(opts.search ? { search: opts.search } : {}),
      ...(opts.status ? { status: opts.status } : {}),
      ...(opts.tag ? { tag: opts.tag } : {}),
      ...(opts.sort ? { sortBy: opts.sort } : {}),
      ...(opts.order ? { sortOrder: opts.order } : {}),
    }),
  )
  await emit(ctx, page, async () => {
    if (page.data.length === 0 && ctx.isTTY) return note(ctx, 'No links match.')
    await printRows(ctx, page.data, linkColumns(ctx.isTTY))
    cutNote(ctx, page, page.data.length)
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
  jsonOption(columnsOption(pageOptions(list), linkColumns(false))).action(
    action<ListLinksOpts>((_args, opts, ctx) => runLinksList(opts, ctx)),
  )
}
