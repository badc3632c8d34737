/** `linkctl webhooks update <id>`: change a webhook. */
import type { Command } from 'commander'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { UsageError } from '../../../session/exit-codes.js'
import { emit, printRecord } from '../../output.js'
import { body, fieldOptions, webhookFields, WEBHOOK_FLAGS, type IdOpts, type WebhookFlags } from './shared.js'

export async function runWebhooksUpdate(opts: WebhookFlags & IdOpts, ctx: Ctx): Promise<void> {
  const b = body(opts)
  if (Object.keys(b).length === 0) throw new UsageError('nothing to change: give at least one option')
  await requireKey(ctx)
  const w = await (await ctx.client()).webhooks.update(opts.id, b)
  await emit(ctx, w, () => printRecord(ctx, webhookFields(w, ctx.isTTY)))
}

export function register(wh: Command): void {
  jsonOption(
    fieldOptions(
      wh.command('update').description('change a webhook').argument('<id>', 'webhook id'),
      'update',
    ),
  ).action(
    action<WebhookFlags>(([id], opts, ctx) => runWebhooksUpdate({ ...opts, id: id ?? '' }, ctx), {
      flagOf: WEBHOOK_FLAGS,
    }),
  )
}
