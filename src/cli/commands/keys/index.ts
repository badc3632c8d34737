/**
 * `linkctl keys ...`: API key management over /api/keys. Each verb is one file beside this one
 * (`keys revoke` → revoke.ts) with its flags (`register`) and its work (`runKeys<Verb>`);
 * shared.ts holds what several verbs use. The order below is the order of `keys --help`.
 */
import type { Command } from 'commander'
import { register as registerActivate } from './activate.js'
import { register as registerActivity } from './activity.js'
import { register as registerCreate } from './create.js'
import { register as registerDeactivate } from './deactivate.js'
import { register as registerDelete } from './delete.js'
import { register as registerGet } from './get.js'
import { register as registerList } from './list.js'
import { register as registerRegenerate } from './regenerate.js'
import { register as registerRevoke } from './revoke.js'
import { register as registerTest } from './test.js'
import { register as registerUpdate } from './update.js'

export function register(program: Command): void {
  const keys = program.command('keys').description('manage API keys')
  for (const registerVerb of [
    registerCreate,
    registerList,
    registerGet,
    registerUpdate,
    registerRegenerate,
    registerRevoke,
    registerActivate,
    registerDeactivate,
    registerDelete,
    registerTest,
    registerActivity,
  ])
    registerVerb(keys)
}
