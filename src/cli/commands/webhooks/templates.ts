/** `linkctl webhooks templates`: the built-in templates and their events. */
import type { Command } from 'commander'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { emit, printRows } from '../../output.js'
import { cutNote, fetchList, pageOptions, type PageFlags } from '../../paging.js'

export async function runWebhooksTemplates(o: PageFlags, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const client = await ctx.client()
  const page = await fetchList(ctx, o, (query) => client.webhooks.templates(query))
  await emit(ctx, page, async () => {
    await printRows(ctx, page.data, [
      { header: 'ID', value: (t) => t.id },
      { header: 'NAME', value: (t) => t.name },
      { header: 'EVENTS', value: (t) => t.events.join(ctx.isTTY ? ', ' : ',') },
    ])
    cutNote(ctx, page, page.data.length)
  })
}

export function register(wh: Command): void {
  jsonOption(
    pageOptions(wh.command('templates').description('the built-in templates and their events')),
  ).action(action<PageFlags>((_a, o, ctx) => runWebhooksTemplates(o, ctx)))
}
