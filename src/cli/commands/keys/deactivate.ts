/** `linkctl keys deactivate <id>`: suspend a key until it is activated again. */
import type { Command } from 'commander'
import { idAction, jsonOption } from '../../action.js'
import type { Ctx } from '../../context.js'
import { transition, type IdOpts } from './shared.js'

export const runKeysDeactivate = (opts: IdOpts, ctx: Ctx) => transition('deactivate', opts, ctx)

export function register(keys: Command): void {
  jsonOption(
    keys
      .command('deactivate')
      .description('suspend a key until it is activated again')
      .argument('<id>', 'key id'),
  ).action(idAction(runKeysDeactivate))
}
