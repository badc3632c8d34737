/** `linkctl keys activity <id>`: a key's recent requests, one page at a time. */
import type { Command } from 'commander'
import { idAction, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { columnsOption, emit, note, printRows } from '../../output.js'
import { cutNote, fetchList, pageOptions, type PageFlags } from '../../paging.js'
import { activityColumns, type IdOpts } from './shared.js'

export interface ActivityOpts extends IdOpts, PageFlags {}

export async function runKeysActivity(opts: ActivityOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const client = await ctx.client()
  const page = await fetchList(ctx, opts, (query) => client.keys.activity(opts.id, query))
  await emit(ctx, page, async () => {
    if (page.data.length === 0 && ctx.isTTY) return note(ctx, 'No activity recorded for this key.')
    await printRows(ctx, page.data, activityColumns(ctx.isTTY))
    cutNote(ctx, page, page.data.length)
  })
}

export function register(keys: Command): void {
  jsonOption(
    columnsOption(
      pageOptions(
        keys.command('activity').description("show a key's recent requests").argument('<id>', 'key id'),
      ),
      activityColumns(false),
    ),
  ).action(idAction<Omit<ActivityOpts, 'id'>>(runKeysActivity))
}
