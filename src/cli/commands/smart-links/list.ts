/** `linkctl smart-links list`: smart links, newest first (`--limit` rows, or `--all`). */
import type { Command } from 'commander'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { columnsOption, emit, note, printRows } from '../../output.js'
import { cutNote, fetchList, pageOptions, type PageFlags } from '../../paging.js'
import { smartLinkColumns } from './shared.js'

export interface ListSmartLinksOpts extends PageFlags {
  search?: string
  tag?: string
}

export async function runSmartLinksList(opts: ListSmartLinksOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const client = await ctx.client()
  const page = await fetchList(ctx, opts, (query) =>
    client.smartLinks.list({
      ...query,
      ...(opts.search ? { search: opts.search } : {}),
      ...(opts.tag ? { tag: opts.tag } : {}),
    }),
  )
  await emit(ctx, page, async () => {
    if (page.data.length === 0 && ctx.isTTY) return note(ctx, 'No smart links match.')
    await printRows(ctx, page.data, smartLinkColumns(ctx.isTTY))
    cutNote(ctx, page, page.data.length)
  })
}

export function register(smart: Command): void {
  const list = smart.command('list').alias('ls').description('list smart links')
  list
    .option('--search <text>', 'match title, short code or a target URL')
    .option('--tag <tag>', 'only smart links with this tag')
  jsonOption(columnsOption(pageOptions(list), smartLinkColumns(false))).action(
    action<ListSmartLinksOpts>((_args, opts, ctx) => runSmartLinksList(opts, ctx)),
  )
}
