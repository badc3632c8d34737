/** `linkctl domains get <domain>`: a domain with its DNS records and their status. */
import type { Command } from 'commander'
import { jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { emit } from '../../output.js'
import { showDomain, type IdOpts, DOMAIN_ARGUMENT, domainAction } from './shared.js'

export async function runDomainsGet(opts: IdOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const d = await (await ctx.client()).domains.get(opts.id)
  await emit(ctx, d, () => showDomain(ctx, d))
}

export function register(domains: Command): void {
  jsonOption(
    domains
      .command('get')
      .description('show a domain with its DNS records and their status')
      .argument('<domain>', DOMAIN_ARGUMENT),
  ).action(domainAction(runDomainsGet))
}
