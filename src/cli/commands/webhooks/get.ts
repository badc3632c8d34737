/** `linkctl webhooks get <id>`: one webhook. */
import type { Command } from 'commander'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { emit, printRecord } from '../../output.js'
import { webhookFields, type IdOpts } from './shared.js'

export async function runWebhooksGet(opts: IdOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const w = await (await ctx.client()).webhooks.get(opts.id)
  await emit(ctx, w, () => printRecord(ctx, webhookFields(w, ctx.isTTY)))
}

export function register(wh: Command): void {
  jsonOption(
    wh.command('get').description('show one webhook').argument('<id>', 'webhook id (wh_...)'),
  ).action(action<object>(([id], _o, ctx) => runWebhooksGet({ id: id ?? '' }, ctx)))
}
