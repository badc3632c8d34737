/** `linkctl fraud rules delete <game> <rule>`: delete a fraud rule (asks on a terminal). */
import type { Command } from 'commander'
import { action } from '../../../action.js'
import { confirmOrStop } from '../../../confirm.js'
import { requireKey, type Ctx } from '../../../../session/context.js'
import { note } from '../../../output.js'
import { GAME_ARGUMENT, RULE_ARGUMENT, ruleIdOf } from '../shared.js'

export async function runFraudRulesDelete(
  o: { game: string; rule: string; yes?: boolean },
  ctx: Ctx,
): Promise<void> {
  await confirmOrStop(ctx, {
    yes: o.yes,
    action: `delete rule ${o.rule}`,
    question: `Delete fraud rule ${o.rule} of game ${o.game}?`,
  })
  await requireKey(ctx)
  const client = await ctx.client()
  const id = await ruleIdOf(client, o.game, o.rule)
  await client.fraud.deleteRule(o.game, id)
  note(ctx, `Deleted rule ${id}`)
}

export function register(rules: Command): void {
  rules
    .command('delete')
    .alias('rm')
    .description('delete a fraud rule (disable keeps it)')
    .argument('<game>', GAME_ARGUMENT)
    .argument('<rule>', RULE_ARGUMENT)
    .option('-y, --yes', 'do not ask for confirmation (required without a terminal)')
    .action(
      action<{ yes?: boolean }>(([game, rule], o, ctx) =>
        runFraudRulesDelete({ ...o, game: game ?? '', rule: rule ?? '' }, ctx),
      ),
    )
}
