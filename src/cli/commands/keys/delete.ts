/** `linkctl keys delete <id>`: delete an API key (asks first on a terminal). */
import type { Command } from 'commander'
import { idAction } from '../../action.js'
import { requireKey, type Ctx } from '../../context.js'
import { CliError, EXIT, UsageError } from '../../exit-codes.js'
import { note } from '../../output.js'
import type { IdOpts } from './shared.js'

export interface DeleteOpts extends IdOpts {
  yes?: boolean
}

export async function runKeysDelete(opts: DeleteOpts, ctx: Ctx): Promise<void> {
  if (!opts.yes) {
    if (!ctx.canPrompt) throw new UsageError('refusing to delete without confirmation: pass --yes')
    if (!(await ctx.prompt.confirm(`Delete API key ${opts.id}? This cannot be undone.`))) {
      throw new CliError('aborted', EXIT.error)
    }
  }
  await requireKey(ctx)
  await (await ctx.client()).keys.delete(opts.id)
  note(ctx, `Deleted key ${opts.id}`)
}

export function register(keys: Command): void {
  keys
    .command('delete')
    .alias('rm')
    .description('delete an API key (asks for confirmation on a terminal)')
    .argument('<id>', 'key id')
    .option('-y, --yes', 'do not ask for confirmation (required without a terminal)')
    .action(idAction<{ yes?: boolean }>(runKeysDelete))
}
