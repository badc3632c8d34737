/** `linkctl fraud rules list <game>`: a game's fraud rules in evaluation order. */
import type { Command } from 'commander'
import { action, jsonOption } from '../../../action.js'
import { requireKey, type Ctx } from '../../../../session/context.js'
import { columnsOption, emit, note, printRows } from '../../../output.js'
import { GAME_ARGUMENT, RULE_COLUMNS } from '../shared.js'

export async function runFraudRulesList(o: { game: string }, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const rules = await (await ctx.client()).fraud.rules(o.game)
  await emit(ctx, rules, async () => {
    if (rules.length === 0 && ctx.isTTY) return note(ctx, 'No rules.')
    await printRows(ctx, rules, RULE_COLUMNS(ctx.isTTY))
  })
}

export function register(rules: Command): void {
  jsonOption(
    columnsOption(
      rules
        .command('list')
        .alias('ls')
        .description("list a game's fraud rules (priority high first)")
        .argument('<game>', GAME_ARGUMENT),
      RULE_COLUMNS(false),
    ),
  ).action(action(([game], _o, ctx) => runFraudRulesList({ game: game ?? '' }, ctx)))
}
