/** `linkctl keys revoke <id>`: revoke a key for good. */
import type { Command } from 'commander'
import { idAction, jsonOption } from '../../action.js'
import type { Ctx } from '../../context.js'
import { transition, type IdOpts } from './shared.js'

export const runKeysRevoke = (opts: IdOpts, ctx: Ctx) => transition('revoke', opts, ctx)

export function register(keys: Command): void {
  jsonOption(keys.command('revoke').description('revoke a key for good').argument('<id>', 'key id')).action(
    idAction(runKeysRevoke),
  )
}
