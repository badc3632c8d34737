/** `linkctl keys revoke <id>`: revoke a key for good (asks first on a terminal). */
import type { Command } from 'commander'
import { idAction, jsonOption } from '../../action.js'
import type { Ctx } from '../../../session/context.js'
import { transition, yesOption, type GuardedOpts } from './shared.js'

export const runKeysRevoke = (opts: GuardedOpts, ctx: Ctx) => transition('revoke', opts, ctx)

export function register(keys: Command): void {
  jsonOption(
    yesOption(
      keys
        .command('revoke')
        .description('revoke a key for good (asks for confirmation on a terminal)')
        .argument('<id>', 'key id'),
    ),
  ).action(idAction<{ yes?: boolean }>(runKeysRevoke))
}
