/** `linkctl webhooks health <id>`: a webhook's health score, success rate and per-event breakdown. */
import type { Command } from 'commander'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { emit, percent, printRecord } from '../../output.js'
import type { IdOpts } from './shared.js'

export async function runWebhooksHealth(opts: IdOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const a = await (await ctx.client()).webhooks.analytics(opts.id)
  await emit(ctx, a, () =>
    printRecord(ctx, [
      ['WEBHOOK', a.webhookId],
      ['STATUS', a.status],
      ['HEALTH', a.healthScore === null ? 'no finished deliveries' : `${a.healthScore} (${a.band})`],
      ['DELIVERIES', `${a.totalDeliveries}: ${a.success} success, ${a.failed} failed, ${a.pending} pending`],
      ['SUCCESS RATE', a.successRate === null ? null : percent(a.successRate)],
      ['AVG RESPONSE', a.averageResponseMs === null ? null : `${a.averageResponseMs} ms`],
      ['CONSECUTIVE FAILURES', a.consecutiveFailures],
      ['EVENTS', a.events.map((e) => `${e.event} ${e.count} (${e.percent}%)`).join(ctx.isTTY ? ', ' : ',')],
    ]),
  )
}

export function register(wh: Command): void {
  jsonOption(
    wh
      .command('health')
      .description('health score, success rate and per-event breakdown')
      .argument('<id>', 'webhook id'),
  ).action(action<object>(([id], _o, ctx) => runWebhooksHealth({ id: id ?? '' }, ctx)))
}
