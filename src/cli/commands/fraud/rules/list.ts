/** `linkctl fraud rules list <game>`: a game's fraud rules in evaluation order. */
import type { Command } from 'commander'
import type { FraudRule } from '../../../../contract/fraud.js'
import { action, jsonOption } from '../../../action.js'
import { requireKey, type Ctx } from '../../../../session/context.js'
import { columnsOption, emit, note, printRows } from '../../../output.js'
import { cutNote, fetchList, pageOptions, type PageFlags } from '../../../paging.js'
import { GAME_ARGUMENT, RULE_COLUMNS } from '../shared.js'

export async function runFraudRulesList(o: PageFlags & { game: string }, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const client = await ctx.client()
  const page = await fetchList(ctx, o, (query) => client.fraud.rules(o.game, query))
  await emit(ctx, page, async () => {
    if (page.data.length === 0 && ctx.isTTY) return note(ctx, 'No rules.')
    await printRows<FraudRule>(ctx, page.data, RULE_COLUMNS(ctx.isTTY))
    cutNote(ctx, page, page.data.length)
  })
}

export function register(rules: Command): void {
  const list = rules
    .command('list')
    .alias('ls')
    .description("list a game's fraud rules (priority high first)")
    .argument('<game>', GAME_ARGUMENT)
  jsonOption(columnsOption(pageOptions(list), RULE_COLUMNS(false))).action(
    action<PageFlags>(([game], o, ctx) => runFraudRulesList({ ...o, game: game ?? '' }, ctx)),
  )
}
