/**
 * The text form of link rules that linkctl's `--rule` and the TUI's rule field share:
 * `<type:value>[,<type:value>…]=><url>` (`os:ios=>https://apps.apple.com/app/id1`,
 * `country:DE,device:mobile=>https://example.de/m`, `query:ref=tw=>https://example.com/tw`).
 */
import type { LinkRule } from '../contract/links.js'
import { LINK_RULE_LIMITS, RULE_CONDITION_TYPES, type RuleConditionType } from '../contract/limits.js'

/** One rule from its text, appended to `previous`; a plain Error says what is wrong. */
export function parseRule(value: string, previous: readonly LinkRule[] = []): LinkRule[] {
  const at = value.indexOf('=>')
  const url = at === -1 ? '' : value.slice(at + 2).trim()
  if (at <= 0 || url === '')
    throw new Error("expected '<type:value>[,<type:value>…]=><url>', such as 'os:ios=>https://…'")
  const conditions = value
    .slice(0, at)
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '')
    .map((c) => {
      const colon = c.indexOf(':')
      const type = c.slice(0, colon).trim().toLowerCase()
      if (colon <= 0 || !(RULE_CONDITION_TYPES as readonly string[]).includes(type))
        throw new Error(
          `unknown condition "${c}": use ${RULE_CONDITION_TYPES.map((t) => `${t}:…`).join(', ')}`,
        )
      return { type: type as RuleConditionType, value: c.slice(colon + 1).trim() }
    })
  if (conditions.length === 0) throw new Error('a rule needs at least one condition')
  const rules = [...previous, { conditions, destinationUrl: url }]
  if (rules.length > LINK_RULE_LIMITS.rulesMax) throw new Error(`at most ${LINK_RULE_LIMITS.rulesMax} rules`)
  return rules
}

/** A rule as `parseRule` reads it. */
export function ruleText(r: LinkRule): string {
  return `${r.conditions.map((c) => `${c.type}:${c.value}`).join(',')}=>${r.destinationUrl}`
}
