/** `linkctl keys update <id>`: change an API key's name, scopes, limits or restrictions. */
import type { Command } from 'commander'
import { idAction, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { emit, printRecord } from '../../output.js'
import { KEY_FLAGS, keyFieldOptions, keyFields, updateBody, type IdOpts, type KeyFlags } from './shared.js'

export async function runKeysUpdate(opts: IdOpts & KeyFlags, ctx: Ctx): Promise<void> {
  const body = updateBody(opts)
  await requireKey(ctx)
  const key = await (await ctx.client()).keys.update(opts.id, body)
  await emit(ctx, key, () => printRecord(ctx, keyFields(key, ctx.isTTY)))
}

export function register(keys: Command): void {
  jsonOption(
    keyFieldOptions(
      keys.command('update').description('change an API key').argument('<id>', 'key id'),
      'update',
    ),
  ).action(idAction<KeyFlags>(runKeysUpdate, { flagOf: KEY_FLAGS }))
}
