/** `linkctl domains add <domain>`: add a custom domain and print the DNS records to create. */
import type { Command } from 'commander'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { UsageError } from '../../../session/exit-codes.js'
import { emit } from '../../output.js'
import { showDomain } from './shared.js'

export async function runDomainsAdd(opts: { domain: string }, ctx: Ctx): Promise<void> {
  if (!opts.domain) throw new UsageError('give the domain, e.g. linkctl domains add go.example.com')
  await requireKey(ctx)
  const d = await (await ctx.client()).domains.add({ domain: opts.domain })
  await emit(ctx, d, () => showDomain(ctx, d))
}

export function register(domains: Command): void {
  jsonOption(
    domains
      .command('add')
      .description('add a custom domain and print the DNS records to create')
      .argument('<domain>', 'host name, e.g. go.example.com'),
  ).action(action<object>(([domain], _opts, ctx) => runDomainsAdd({ domain: domain ?? '' }, ctx)))
}
