/** `linkctl webhooks list`: one page of webhooks, by status or event. */
import { Option, type Command } from 'commander'
import {
  WEBHOOK_EVENTS,
  WEBHOOK_STATUSES,
  type WebhookEvent,
  type WebhookStatus,
} from '../../../contract/limits.js'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { columnsOption, emit, note, printRows } from '../../output.js'
import { cutNote, fetchList, pageOptions, type PageFlags } from '../../paging.js'
import { webhookColumns } from './shared.js'

export async function runWebhooksList(
  opts: PageFlags & { status?: WebhookStatus; event?: WebhookEvent },
  ctx: Ctx,
) {
  await requireKey(ctx)
  const client = await ctx.client()
  const page = await fetchList(ctx, opts, (query) =>
    client.webhooks.list({
      ...query,
      ...(opts.status ? { status: opts.status } : {}),
      ...(opts.event ? { event: opts.event } : {}),
    }),
  )
  await emit(ctx, page, async () => {
    if (page.data.length === 0 && ctx.isTTY) return note(ctx, 'No webhooks match.')
    await printRows(ctx, page.data, webhookColumns(ctx.isTTY))
    cutNote(ctx, page, page.data.length)
  })
}

export function register(wh: Command): void {
  const list = wh.command('list').alias('ls').description('list webhooks')
  list.addOption(new Option('--status <status>', 'only webhooks with this status').choices(WEBHOOK_STATUSES))
  list.addOption(
    new Option('--event <type>', 'only webhooks subscribed to this event').choices(WEBHOOK_EVENTS),
  )
  jsonOption(columnsOption(pageOptions(list), webhookColumns(false))).action(
    action<PageFlags>((_a, opts, ctx) => runWebhooksList(opts, ctx)),
  )
}
