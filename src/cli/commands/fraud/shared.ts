/**
 * What the `fraud` verbs share: how a rule and a fraud event look on the terminal, how a
 * `--value` is read, and how a rule is named on the command line (its id, or its exact name).
 */
import type { LinkdClient } from '../../../client/index.js'
import type { FraudEvent, FraudRule, RuleOperator, RuleValue } from '../../../contract/fraud.js'
import type { PageOf } from '../../../contract/common.js'
import { UsageError } from '../../../session/exit-codes.js'
import { allRows } from '../../paging.js'
import { round, when, type Column, type Field } from '../../output.js'
import { ruleNames } from '../../../format/cells.js'

export const GAME_ARGUMENT = 'game id'
export const RULE_ARGUMENT = 'rule id (rule_…) or exact rule name, e.g. "Block Bot Traffic"'

type Scalar = string | number | boolean
function scalar(text: string): Scalar {
  if (text === 'true') return true
  if (text === 'false') return false
  if (/^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(text)) return Number(text)
  return text
}

/**
 * A rule value from the command line: JSON when it starts with `[` or `"` (`'"42"'` is the text
 * 42), `true`/`false`, a number, else text; for `in` a comma-separated list of those.
 */
export function ruleValue(text: string, operator: RuleOperator | undefined): RuleValue {
  if (text.startsWith('[') || text.startsWith('"')) {
    try {
      return JSON.parse(text) as RuleValue
    } catch {
      throw new UsageError(`--value ${text} is not valid JSON`)
    }
  }
  if (operator === 'in') return text.split(',').map((x) => scalar(x.trim()))
  return scalar(text)
}

const show = (v: RuleValue) => JSON.stringify(v)
/** A rule's cooldown, one way in the list and the record: `none` for 0, else minutes. */
const cooldownText = (r: FraudRule) => (r.cooldownMinutes ? `${r.cooldownMinutes} min` : 'none')
export const ruleCondition = (r: FraudRule) => `${r.field} ${r.operator} ${show(r.value)}`

export const RULE_COLUMNS = (tty: boolean): Column<FraudRule>[] => [
  { header: 'ID', value: (r) => r.id },
  { header: 'NAME', value: (r) => r.name, fit: 'flex' },
  { header: 'ACTION', value: (r) => r.action },
  { header: 'CONDITION', value: ruleCondition, fit: 'flex' },
  { header: 'PRIORITY', value: (r) => r.priority, drop: 2 },
  { header: 'COOLDOWN', value: cooldownText, drop: 3 },
  { header: 'ENABLED', value: (r) => (r.enabled ? 'yes' : 'no'), drop: 1 },
  { header: 'UPDATED', value: (r) => when(r.updatedAt, tty), drop: 4 },
]

export function ruleFields(r: FraudRule, tty: boolean): Field[] {
  return [
    ['ID', r.id],
    ['NAME', r.name],
    ['ACTION', r.action],
    ['CONDITION', ruleCondition(r)],
    ['PRIORITY', r.priority],
    ['COOLDOWN', cooldownText(r)],
    ['ENABLED', r.enabled ? 'yes' : 'no'],
    ['TEMPLATE', r.template ?? '-'],
    ['UPDATED', when(r.updatedAt, tty)],
  ]
}

/** The id of the rule a user named: an id as is, a name looked up among the game's rules. */
export async function ruleIdOf(client: LinkdClient, game: string, rule: string): Promise<string> {
  if (/^rule_/.test(rule)) return rule
  const { rows } = await allRows<FraudRule, PageOf<FraudRule>>((query) => client.fraud.rules(game, query))
  const named = rows.filter((r) => r.name === rule)
  if (named.length === 1) return named[0]!.id
  if (named.length === 0) throw new UsageError(`no rule named "${rule}" in game ${game}`)
  throw new UsageError(`${named.length} rules are named "${rule}": give the rule id`)
}

/** A fraud event's threat type on the terminal (`-` when the deciding rule read no detector). */
const threatOf = (e: FraudEvent) => e.threatType ?? '-'

/** The columns of fraud events (`fraud events`, `fraud watch`). */
export const EVENT_COLUMNS = (tty: boolean): Column<FraudEvent>[] => [
  { header: 'ID', value: (e) => e.id },
  { header: 'RECEIVED', value: (e) => when(e.receivedAt, tty), drop: 3 },
  { header: 'PLAYER', value: (e) => e.playerId, fit: 'flex' },
  { header: 'THREAT', value: threatOf },
  { header: 'RISK', value: (e) => round(e.riskScore, 2) },
  { header: 'STATUS', value: (e) => e.status },
  { header: 'RULES', value: (e) => ruleNames(e) || '-', fit: 'wrap', drop: 2 },
  { header: 'IP', value: (e) => e.ip ?? '-', drop: 4 },
  { header: 'REVIEW', value: (e) => e.review, drop: 1 },
]

/** One fraud event as a line of `fraud watch` on a terminal. */
export const eventLine = (e: FraudEvent) =>
  `${e.receivedAt}  ${e.status.padEnd(8)}  ${threatOf(e).padEnd(15)}  risk ${round(e.riskScore, 2)}  player ${e.playerId}  ${e.id}` +
  (e.triggeredRules.length ? `  (${ruleNames(e)})` : '')
