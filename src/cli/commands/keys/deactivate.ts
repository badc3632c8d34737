/** `linkctl keys deactivate <id>`: suspend a key until it is activated again (asks first). */
import type { Command } from 'commander'
import { idAction, jsonOption } from '../../action.js'
import type { Ctx } from '../../../session/context.js'
import { transition, yesOption, type GuardedOpts } from './shared.js'

export const runKeysDeactivate = (opts: GuardedOpts, ctx: Ctx) => transition('deactivate', opts, ctx)

export function register(keys: Command): void {
  jsonOption(
    yesOption(
      keys
        .command('deactivate')
        .description('suspend a key until it is activated again (asks for confirmation on a terminal)')
        .argument('<id>', 'key id'),
    ),
  ).action(idAction<{ yes?: boolean }>(runKeysDeactivate))
}
