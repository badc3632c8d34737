/**
 * `linkctl smart-links ...` (alias `sl`): smart links over /api/use/smart-links, one verb per
 * file beside this one; shared.ts holds what several verbs use. `stats` is links' verb, reading
 * smart link references (its analytics add the platforms breakdown).
 */
import type { Command } from 'commander'
import { register as registerCreate } from './create.js'
import { register as registerDelete } from './delete.js'
import { register as registerGet } from './get.js'
import { register as registerList } from './list.js'
import { register as registerStats } from './stats.js'
import { register as registerUpdate } from './update.js'

export function register(program: Command): void {
  const smart = program
    .command('smart-links')
    .alias('sl')
    .description('manage smart links: one short URL with iOS, Android and desktop targets')
  for (const registerVerb of [
    registerCreate,
    registerList,
    registerGet,
    registerUpdate,
    registerDelete,
    registerStats,
  ])
    registerVerb(smart)
}
