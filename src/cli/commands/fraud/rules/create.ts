/** `linkctl fraud rules create <game>`: a new fraud rule. */
import { Option, type Command } from 'commander'
import {
  FRAUD_LIMITS,
  RULE_ACTIONS,
  RULE_OPERATORS,
  type RuleAction,
  type RuleOperator,
} from '../../../../contract/fraud-limits.js'
import { action, jsonOption } from '../../../action.js'
import { requireKey, type Ctx } from '../../../../session/context.js'
import { emit, printRecord } from '../../../output.js'
import { intArg } from '../../../parse.js'
import { GAME_ARGUMENT, ruleFields, ruleValue } from '../shared.js'

export interface RuleFlags {
  name?: string
  action?: RuleAction
  field?: string
  operator?: RuleOperator
  value?: string
  priority?: number
  cooldown?: number
}

export async function runFraudRulesCreate(
  o: RuleFlags & {
    game: string
    name: string
    action: RuleAction
    field: string
    operator: RuleOperator
    value: string
    disabled?: boolean
  },
  ctx: Ctx,
): Promise<void> {
  await requireKey(ctx)
  const r = await (
    await ctx.client()
  ).fraud.createRule(o.game, {
    name: o.name,
    action: o.action,
    field: o.field,
    operator: o.operator,
    value: ruleValue(o.value, o.operator),
    ...(o.priority !== undefined ? { priority: o.priority } : {}),
    ...(o.cooldown !== undefined ? { cooldownMinutes: o.cooldown } : {}),
    ...(o.disabled ? { enabled: false } : {}),
  })
  await emit(ctx, r, () => printRecord(ctx, ruleFields(r, ctx.isTTY)))
}

/** The flags create and update share (required on create). */
export function ruleOptions(cmd: Command, required: boolean): Command {
  const opt = (flags: string, description: string) =>
    required ? new Option(flags, description).makeOptionMandatory() : new Option(flags, description)
  return cmd
    .addOption(opt('--name <name>', 'rule name'))
    .addOption(opt('--action <action>', 'what a match does').choices(RULE_ACTIONS))
    .addOption(
      opt(
        '--field <field>',
        'event_type, player_id, platform, country, ip, user_agent, device_fingerprint, data.<key>, device.<key>, score.<threat type>, risk',
      ),
    )
    .addOption(opt('--operator <op>', 'comparison').choices(RULE_OPERATORS))
    .addOption(opt('--value <value>', 'number, true/false, text, JSON ("[1,2]", \'"42"\'); for in: a,b,c'))
    .option(
      '--priority <n>',
      'priority 1-1000 (higher first; default 100)',
      intArg(FRAUD_LIMITS.priorityMin, FRAUD_LIMITS.priorityMax),
    )
    .option(
      '--cooldown <minutes>',
      'do not fire again for the same player within (0-1440)',
      intArg(0, FRAUD_LIMITS.cooldownMax),
    )
}

export function register(rules: Command): void {
  const create = rules.command('create').description('create a fraud rule').argument('<game>', GAME_ARGUMENT)
  ruleOptions(create, true).option('--disabled', 'create it switched off')
  jsonOption(create).action(
    action<Parameters<typeof runFraudRulesCreate>[0]>(([game], o, ctx) =>
      runFraudRulesCreate({ ...o, game: game ?? '' }, ctx),
    ),
  )
}
