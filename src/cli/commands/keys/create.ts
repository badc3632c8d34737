/** `linkctl keys create`: create an API key; the full key is shown this once. */
import type { Command } from 'commander'
import { action, jsonOption } from '../../action.js'
import { warn } from '../../output.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { createBody, KEY_FLAGS, keyFieldOptions, printNewKey, ONCE_WARNING, type KeyFlags } from './shared.js'

export async function runKeysCreate(opts: KeyFlags, ctx: Ctx): Promise<void> {
  const body = createBody(opts)
  await requireKey(ctx)
  const key = await (await ctx.client()).keys.create(body)
  await printNewKey(ctx, key, ONCE_WARNING)
  // linkd takes a key without scopes (the API allows it), which can then read nothing.
  if (key.permissions.length === 0)
    warn(
      ctx,
      `the key has no scopes: linkd refuses it every resource (403); give it some with linkctl keys update ${key.id} --preset read-only (or --scope …)`,
    )
}

export function register(keys: Command): void {
  jsonOption(
    keyFieldOptions(
      keys
        .command('create')
        .description('create an API key: its full value is printed once, first and alone on its line'),
      'create',
    ),
  ).action(action<KeyFlags>((_args, opts, ctx) => runKeysCreate(opts, ctx), { flagOf: KEY_FLAGS }))
}
