/** `linkctl webhooks retry <id> <delivery-id>`: retry a failed delivery now (exit 1 when it fails again). */
import type { Command } from 'commander'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { showAttempt, type IdOpts } from './shared.js'

export async function runWebhooksRetry(opts: IdOpts & { deliveryId: string }, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  await showAttempt(ctx, await (await ctx.client()).webhooks.retry(opts.id, opts.deliveryId))
}

export function register(wh: Command): void {
  jsonOption(
    wh
      .command('retry')
      .description('retry a failed delivery now (exit 1 when it fails again)')
      .argument('<id>', 'webhook id')
      .argument('<delivery-id>', 'delivery id (dlv_...)'),
  ).action(action<object>(([id, d], _o, ctx) => runWebhooksRetry({ id: id ?? '', deliveryId: d ?? '' }, ctx)))
}
