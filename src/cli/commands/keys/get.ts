/** `linkctl keys get <id>`: one API key. */
import type { Command } from 'commander'
import { idAction, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { emit, printRecord } from '../../output.js'
import { keyFields, type IdOpts } from './shared.js'

export async function runKeysGet(opts: IdOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const key = await (await ctx.client()).keys.get(opts.id)
  await emit(ctx, key, () => printRecord(ctx, keyFields(key, ctx.isTTY)))
}

export function register(keys: Command): void {
  jsonOption(keys.command('get').description('show one API key').argument('<id>', 'key id (key_...)')).action(
    idAction(runKeysGet),
  )
}
