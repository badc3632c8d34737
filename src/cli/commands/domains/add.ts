/** `linkctl domains add <domain>`: add a custom domain and print the DNS records (or the file) to create. */
import { Option, type Command } from 'commander'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { UsageError } from '../../../session/exit-codes.js'
import { emit } from '../../output.js'
import { apiMethod, METHOD_DESCRIPTION, METHODS, showDomain } from './shared.js'

export async function runDomainsAdd(
  opts: { domain: string; method?: (typeof METHODS)[number] },
  ctx: Ctx,
): Promise<void> {
  if (!opts.domain) throw new UsageError('give the domain, e.g. linkctl domains add go.example.com')
  await requireKey(ctx)
  const verificationMethod = opts.method && apiMethod(opts.method)
  const d = await (
    await ctx.client()
  ).domains.add({
    domain: opts.domain,
    ...(verificationMethod ? { verificationMethod } : {}),
  })
  await emit(ctx, d, () => showDomain(ctx, d))
}

export function register(domains: Command): void {
  jsonOption(
    domains
      .command('add')
      .description('add a custom domain and print the DNS records (or the verification file) to create')
      .argument('<domain>', 'host name, e.g. go.example.com')
      .addOption(new Option('--method <method>', METHOD_DESCRIPTION).choices(METHODS).default('dns')),
  ).action(
    action<{ method: (typeof METHODS)[number] }>(([domain], opts, ctx) =>
      runDomainsAdd({ domain: domain ?? '', method: opts.method }, ctx),
    ),
  )
}
