/**
 * `linkctl fraud ...`: fraud rules and the blocklist of a game over /api/v1/admin/fraud. Two
 * nouns under it, each verb one file (`fraud rules create` → rules/create.ts); shared.ts holds
 * how rules look and how `--value` and a rule name are read.
 */
import type { Command } from 'commander'
import { register as registerRulesList } from './rules/list.js'
import { register as registerRulesCreate } from './rules/create.js'
import { register as registerRulesUpdate } from './rules/update.js'
import { register as registerRulesToggle } from './rules/toggle.js'
import { register as registerRulesDelete } from './rules/delete.js'
import { register as registerBlocklistList } from './blocklist/list.js'
import { register as registerBlocklistAdd } from './blocklist/add.js'
import { register as registerBlocklistRemove } from './blocklist/remove.js'

export function register(program: Command): void {
  const fraud = program.command('fraud').description('fraud rules and blocklist of a game')
  const rules = fraud.command('rules').description('fraud rules (the six templates included)')
  for (const registerVerb of [
    registerRulesList,
    registerRulesCreate,
    registerRulesUpdate,
    registerRulesToggle,
    registerRulesDelete,
  ])
    registerVerb(rules)
  const blocklist = fraud.command('blocklist').description('blocked IP addresses and device fingerprints')
  for (const registerVerb of [registerBlocklistList, registerBlocklistAdd, registerBlocklistRemove])
    registerVerb(blocklist)
}
