/** `linkctl keys list`: one page of the organization's API keys. */
import { Option, type Command } from 'commander'
import { KEY_STATUSES, type KeyStatus } from '../../../contract/limits.js'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { columnsOption, emit, note, printRows } from '../../output.js'
import { cutNote, fetchList, pageOptions, type PageFlags } from '../../paging.js'
import { keyColumns } from './shared.js'

export interface ListOpts extends PageFlags {
  status?: KeyStatus
  search?: string
}

export async function runKeysList(opts: ListOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const client = await ctx.client()
  const page = await fetchList(ctx, opts, (query) =>
    client.keys.list({
      ...query,
      ...(opts.status ? { status: opts.status } : {}),
      ...(opts.search ? { search: opts.search } : {}),
    }),
  )
  await emit(ctx, page, async () => {
    if (page.data.length === 0 && ctx.isTTY) return note(ctx, 'No API keys match.')
    await printRows(ctx, page.data, keyColumns(ctx.isTTY))
    cutNote(ctx, page, page.data.length)
  })
}

export function register(keys: Command): void {
  const list = keys.command('list').alias('ls').description('list API keys')
  list.addOption(new Option('--status <status>', 'only keys with this status').choices(KEY_STATUSES))
  list.option('--search <text>', 'match name or description')
  jsonOption(columnsOption(pageOptions(list), keyColumns(false))).action(
    action<ListOpts>((_args, opts, ctx) => runKeysList(opts, ctx)),
  )
}
