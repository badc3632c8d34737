/** `linkctl domains verify <domain>`: check the DNS records or the file now (exit 1 when verification failed). */
import type { Command } from 'commander'
import { jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { CliError, EXIT } from '../../../session/exit-codes.js'
import { emit, visible } from '../../output.js'
import type { Domain } from '../../../contract/domains.js'
import { blockedRecords, showDomain, type IdOpts, DOMAIN_ARGUMENT, domainAction } from './shared.js'

/** What to do about a failed verification, naming only records the output above shows. */
export function verifyAdvice(d: Domain): string {
  const file = d.verificationFile
  if (file)
    return `${d.domain} is not verified: ${visible(file.reason ?? 'the file was not checked yet')}; publish the file as shown above, then verify again`
  const blocked = blockedRecords(d)
  const failed = d.dnsRecords.filter((r) => r.status === 'Failed' && !blocked.includes(r))
  const steps: string[] = []
  if (failed.length > 0)
    steps.push(`fix the ${failed.map((r) => `${r.type} record ${r.name}`).join(' and ')} (marked Failed)`)
  if (blocked.length > 0)
    steps.push(
      `fix the setting in the warning above and restart linkd (for the ${blocked.map((r) => r.type).join(' and ')} record)`,
    )
  if (steps.length === 0)
    steps.push(`wait until every resolver has the records (see: linkctl domains check ${d.domain})`)
  return `${d.domain} is not verified: ${steps.join(', then ')}, then verify again`
}

export async function runDomainsVerify(opts: IdOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const d = await (await ctx.client()).domains.verify(opts.id)
  await emit(ctx, d, () => showDomain(ctx, d))
  if (d.verificationStatus === 'failed') throw new CliError(verifyAdvice(d), EXIT.error)
}

export function register(domains: Command): void {
  jsonOption(
    domains
      .command('verify')
      .description('check the DNS records (or the verification file) now (exit 1 when verification failed)')
      .argument('<domain>', DOMAIN_ARGUMENT),
  ).action(domainAction(runDomainsVerify))
}
