/** `linkctl webhooks templates`: the built-in templates and their events. */
import type { Command } from 'commander'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { emit, printRows } from '../../output.js'

export async function runWebhooksTemplates(ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const { data } = await (await ctx.client()).webhooks.templates()
  await emit(ctx, data, () =>
    printRows(ctx, data, [
      { header: 'ID', value: (t) => t.id },
      { header: 'NAME', value: (t) => t.name },
      { header: 'EVENTS', value: (t) => t.events.join(ctx.isTTY ? ', ' : ',') },
    ]),
  )
}

export function register(wh: Command): void {
  jsonOption(wh.command('templates').description('the built-in templates and their events')).action(
    action<object>((_a, _o, ctx) => runWebhooksTemplates(ctx)),
  )
}
