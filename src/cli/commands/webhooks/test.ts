/** `linkctl webhooks test <id>`: send a sample event now and show the attempt (exit 1 when it failed). */
import { Option, type Command } from 'commander'
import { WEBHOOK_EVENTS, type WebhookEvent } from '../../../contract/limits.js'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { showAttempt, type IdOpts } from './shared.js'

export async function runWebhooksTest(opts: IdOpts & { event?: WebhookEvent }, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  await showAttempt(ctx, await (await ctx.client()).webhooks.test(opts.id, opts.event))
}

export function register(wh: Command): void {
  jsonOption(
    wh
      .command('test')
      .description('send a sample event now and show the result (exit 1 when it failed)')
      .argument('<id>', 'webhook id')
      .addOption(
        new Option('--event <type>', 'event type of the sample (default link.created)').choices(
          WEBHOOK_EVENTS,
        ),
      ),
  ).action(
    action<{ event?: WebhookEvent }>(([id], opts, ctx) => runWebhooksTest({ ...opts, id: id ?? '' }, ctx)),
  )
}
