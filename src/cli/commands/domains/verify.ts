/** `linkctl domains verify <domain>`: check the DNS records now (exit 1 when verification failed). */
import type { Command } from 'commander'
import { jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../context.js'
import { CliError, EXIT } from '../../exit-codes.js'
import { emit } from '../../output.js'
import { showDomain, type IdOpts, DOMAIN_ARGUMENT, domainAction } from './shared.js'

export async function runDomainsVerify(opts: IdOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const d = await (await ctx.client()).domains.verify(opts.id)
  await emit(ctx, d, () => showDomain(ctx, d))
  if (d.verificationStatus === 'failed')
    throw new CliError(
      `${d.domain} is not verified: fix the records marked Failed and verify again`,
      EXIT.error,
    )
}

export function register(domains: Command): void {
  jsonOption(
    domains
      .command('verify')
      .description('check the DNS records now (exit 1 when verification failed)')
      .argument('<domain>', DOMAIN_ARGUMENT),
  ).action(domainAction(runDomainsVerify))
}
