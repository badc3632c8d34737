/** `linkctl webhooks create <url>`: create a webhook; its signing secret is shown this once. */
import type { Command } from 'commander'
import type { CreateWebhookBody } from '../../../contract/webhooks.js'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { UsageError } from '../../../session/exit-codes.js'
import { emit, printRecord, warn } from '../../output.js'
import { body, fieldOptions, SECRET_ONCE, webhookFields, WEBHOOK_FLAGS, type WebhookFlags } from './shared.js'

export async function runWebhooksCreate(opts: WebhookFlags, ctx: Ctx): Promise<void> {
  if (!opts.event && !opts.template) throw new UsageError('give --event (repeatable) or --template')
  const b = { ...body(opts), ...(opts.template && { template: opts.template }) }
  await requireKey(ctx)
  const w = await (await ctx.client()).webhooks.create(b as CreateWebhookBody)
  await emit(ctx, w, () => printRecord(ctx, webhookFields(w, ctx.isTTY)))
  warn(ctx, SECRET_ONCE)
}

export function register(wh: Command): void {
  jsonOption(
    fieldOptions(
      wh
        .command('create')
        .description('create a webhook (the signing secret is shown once)')
        .argument('<url>', 'receiver URL: https, or http for localhost / 127.0.0.1'),
      'create',
    ),
  ).action(
    action<WebhookFlags>(([url], opts, ctx) => runWebhooksCreate({ ...opts, url: url ?? '' }, ctx), {
      flagOf: WEBHOOK_FLAGS,
    }),
  )
}
