/** `linkctl webhooks rotate-secret <id>`: a new signing secret, shown this once; the old one stops at once. */
import type { Command } from 'commander'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { emit, warn } from '../../output.js'
import { SECRET_ONCE, type IdOpts } from './shared.js'

export async function runWebhooksRotate(opts: IdOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const w = await (await ctx.client()).webhooks.rotateSecret(opts.id)
  await emit(ctx, w, () => void ctx.stdout.write(`${w.secret}\n`))
  warn(ctx, `the previous secret stopped working; ${SECRET_ONCE}`)
}

export function register(wh: Command): void {
  jsonOption(
    wh
      .command('rotate-secret')
      .description('replace the signing secret (the old one stops at once)')
      .argument('<id>', 'webhook id'),
  ).action(action<object>(([id], _o, ctx) => runWebhooksRotate({ id: id ?? '' }, ctx)))
}
