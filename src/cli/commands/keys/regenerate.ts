/** `linkctl keys regenerate <id>`: a new value for a key; the old one stops working. */
import type { Command } from 'commander'
import { idAction, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { printNewKey, ONCE_WARNING, type IdOpts } from './shared.js'

export async function runKeysRegenerate(opts: IdOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const key = await (await ctx.client()).keys.regenerate(opts.id)
  await printNewKey(ctx, key, `the previous key stopped working; ${ONCE_WARNING}`)
}

export function register(keys: Command): void {
  jsonOption(
    keys
      .command('regenerate')
      .description('replace the key value (the old one stops working; the new one is shown once)')
      .argument('<id>', 'key id'),
  ).action(idAction(runKeysRegenerate))
}
