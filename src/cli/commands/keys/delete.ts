/** `linkctl keys delete <id>`: delete an API key (asks first on a terminal). */
import type { Command } from 'commander'
import { idAction } from '../../action.js'
import type { Ctx } from '../../../session/context.js'
import { note } from '../../output.js'
import { confirmKeyAction, yesOption, type GuardedOpts } from './shared.js'

export type DeleteOpts = GuardedOpts

export async function runKeysDelete(opts: DeleteOpts, ctx: Ctx): Promise<void> {
  await confirmKeyAction('delete', opts, ctx)
  await (await ctx.client()).keys.delete(opts.id)
  note(ctx, `Deleted key ${opts.id}`)
}

export function register(keys: Command): void {
  yesOption(
    keys
      .command('delete')
      .alias('rm')
      .description('delete an API key (asks for confirmation on a terminal)')
      .argument('<id>', 'key id'),
  ).action(idAction<{ yes?: boolean }>(runKeysDelete))
}
