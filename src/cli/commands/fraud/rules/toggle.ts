/** `linkctl fraud rules enable|disable <game> <rule>`: switch a rule on or off without deleting it. */
import type { Command } from 'commander'
import { action, jsonOption } from '../../../action.js'
import type { Ctx } from '../../../../session/context.js'
import { GAME_ARGUMENT, RULE_ARGUMENT } from '../shared.js'
import { runFraudRulesUpdate } from './update.js'

export const runFraudRulesEnable = (o: { game: string; rule: string }, ctx: Ctx) =>
  runFraudRulesUpdate({ ...o, enabled: true }, ctx)
export const runFraudRulesDisable = (o: { game: string; rule: string }, ctx: Ctx) =>
  runFraudRulesUpdate({ ...o, enabled: false }, ctx)

export function register(rules: Command): void {
  for (const [verb, run] of [
    ['enable', runFraudRulesEnable],
    ['disable', runFraudRulesDisable],
  ] as const)
    jsonOption(
      rules
        .command(verb)
        .description(`${verb} a fraud rule`)
        .argument('<game>', GAME_ARGUMENT)
        .argument('<rule>', RULE_ARGUMENT),
    ).action(action(([game, rule], _o, ctx) => run({ game: game ?? '', rule: rule ?? '' }, ctx)))
}
