/** `linkctl fraud rules update <game> <rule>`: change a fraud rule (templates included). */
import type { Command } from 'commander'
import type { UpdateRuleBody } from '../../../../contract/fraud.js'
import { action, jsonOption } from '../../../action.js'
import { requireKey, type Ctx } from '../../../../session/context.js'
import { UsageError } from '../../../../session/exit-codes.js'
import { emit, printRecord } from '../../../output.js'
import { GAME_ARGUMENT, RULE_ARGUMENT, ruleFields, ruleIdOf, ruleValue } from '../shared.js'
import { ruleOptions, type RuleFlags } from './create.js'

export async function runFraudRulesUpdate(
  o: RuleFlags & { game: string; rule: string; enabled?: boolean },
  ctx: Ctx,
): Promise<void> {
  const body: UpdateRuleBody = {
    ...(o.name !== undefined ? { name: o.name } : {}),
    ...(o.action !== undefined ? { action: o.action } : {}),
    ...(o.field !== undefined ? { field: o.field } : {}),
    ...(o.operator !== undefined ? { operator: o.operator } : {}),
    ...(o.value !== undefined ? { value: ruleValue(o.value, o.operator) } : {}),
    ...(o.priority !== undefined ? { priority: o.priority } : {}),
    ...(o.cooldown !== undefined ? { cooldownMinutes: o.cooldown } : {}),
    ...(o.enabled !== undefined ? { enabled: o.enabled } : {}),
  }
  if (Object.keys(body).length === 0) throw new UsageError('nothing to change: give at least one flag')
  await requireKey(ctx)
  const client = await ctx.client()
  const r = await client.fraud.updateRule(o.game, await ruleIdOf(client, o.game, o.rule), body)
  await emit(ctx, r, () => printRecord(ctx, ruleFields(r, ctx.isTTY)))
}

export function register(rules: Command): void {
  const update = rules
    .command('update')
    .description('change a fraud rule (a changed operator with in: give --value too)')
    .argument('<game>', GAME_ARGUMENT)
    .argument('<rule>', RULE_ARGUMENT)
  jsonOption(ruleOptions(update, false)).action(
    action<RuleFlags>(([game, rule], o, ctx) =>
      runFraudRulesUpdate({ ...o, game: game ?? '', rule: rule ?? '' }, ctx),
    ),
  )
}
