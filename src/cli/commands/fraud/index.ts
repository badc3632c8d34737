/**
 * `linkctl fraud ...`: the fraud detection of a game over /api/v1/admin/fraud: its dashboard,
 * fraud events (list, review, live watch), and two nouns, rules and blocklist, each verb one file
 * (`fraud rules create` → rules/create.ts); shared.ts holds how rules and events look and how
 * `--value` and a rule name are read.
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
import { register as registerDashboard } from './dashboard.js'
import { register as registerEvents } from './events.js'
import { register as registerReview } from './review.js'
import { register as registerWatch } from './watch.js'

export function register(program: Command): void {
  const fraud = program
    .command('fraud')
    .description('fraud detection of a game: dashboard, fraud events, rules and blocklist')
  for (const registerVerb of [registerDashboard, registerEvents, registerReview, registerWatch])
    registerVerb(fraud)
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
