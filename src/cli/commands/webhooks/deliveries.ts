/** `linkctl webhooks deliveries <id>`: a webhook's delivery log with totals. */
import { Option, type Command } from 'commander'
import {
  DELIVERY_STATUSES,
  WEBHOOK_EVENTS,
  type DeliveryStatus,
  type WebhookEvent,
} from '../../../contract/limits.js'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { columnsOption, emit, note, printRows } from '../../output.js'
import { cutNote, fetchList, pageOptions, type PageFlags } from '../../paging.js'
import { deliveryColumns, type IdOpts } from './shared.js'

export async function runWebhooksDeliveries(
  opts: PageFlags & IdOpts & { status?: DeliveryStatus; event?: WebhookEvent },
  ctx: Ctx,
): Promise<void> {
  await requireKey(ctx)
  const client = await ctx.client()
  const page = await fetchList(ctx, opts, (query) =>
    client.webhooks.deliveries(opts.id, {
      ...query,
      ...(opts.status ? { status: opts.status } : {}),
      ...(opts.event ? { event: opts.event } : {}),
    }),
  )
  await emit(ctx, page, async () => {
    if (page.data.length === 0 && ctx.isTTY) note(ctx, 'No deliveries match.')
    else await printRows(ctx, page.data, deliveryColumns(ctx.isTTY))
    const t = page.totals
    if (ctx.isTTY)
      note(ctx, `Total ${t.total}: ${t.success} success, ${t.failed} failed, ${t.pending} pending`)
    cutNote(ctx, page, page.data.length)
  })
}

export function register(wh: Command): void {
  const deliveries = wh
    .command('deliveries')
    .description("a webhook's delivery log with totals")
    .argument('<id>', 'webhook id')
  deliveries.addOption(
    new Option('--status <status>', 'only deliveries with this status').choices(DELIVERY_STATUSES),
  )
  deliveries.addOption(new Option('--event <type>', 'only this event type').choices(WEBHOOK_EVENTS))
  jsonOption(columnsOption(pageOptions(deliveries), deliveryColumns(false))).action(
    action<PageFlags & { status?: DeliveryStatus; event?: WebhookEvent }>(([id], opts, ctx) =>
      runWebhooksDeliveries({ ...opts, id: id ?? '' }, ctx),
    ),
  )
}
