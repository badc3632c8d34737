/** `linkctl keys activate <id>`: reactivate an inactive key. */
import type { Command } from 'commander'
import { idAction, jsonOption } from '../../action.js'
import type { Ctx } from '../../../session/context.js'
import { transition, type IdOpts } from './shared.js'

export const runKeysActivate = (opts: IdOpts, ctx: Ctx) => transition('activate', opts, ctx)

export function register(keys: Command): void {
  jsonOption(
    keys.command('activate').description('reactivate an inactive key').argument('<id>', 'key id'),
  ).action(idAction(runKeysActivate))
}
