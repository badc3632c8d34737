/**
 * `linkctl games ...`: game registration and settings over /api/v1/admin/games. Each verb is one
 * file beside this one (`games regenerate-key` → regenerate-key.ts) with its flags (`register`)
 * and its work (`runGames<Verb>`); shared.ts holds the setting flags and how a game is shown.
 */
import type { Command } from 'commander'
import { register as registerCreate } from './create.js'
import { register as registerGet } from './get.js'
import { register as registerList } from './list.js'
import { register as registerRegenerateKey } from './regenerate-key.js'
import { register as registerUpdate } from './update.js'

export function register(program: Command): void {
  const games = program.command('games').description('manage games (gaming analytics)')
  for (const registerVerb of [
    registerCreate,
    registerList,
    registerGet,
    registerUpdate,
    registerRegenerateKey,
  ])
    registerVerb(games)
}
