/** `linkctl domains set-default <domain>`: make a verified domain the default for new links. */
import type { Command } from 'commander'
import { jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { emit, note } from '../../output.js'
import { type IdOpts, DOMAIN_ARGUMENT, domainAction } from './shared.js'

export async function runDomainsSetDefault(opts: IdOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const d = await (await ctx.client()).domains.setDefault(opts.id)
  if (ctx.json) await emit(ctx, d, () => undefined)
  else note(ctx, `${d.domain} is now the default domain for new links`)
}

export function register(domains: Command): void {
  jsonOption(
    domains
      .command('set-default')
      .description('make a verified domain the default for new links')
      .argument('<domain>', DOMAIN_ARGUMENT),
  ).action(domainAction(runDomainsSetDefault))
}
