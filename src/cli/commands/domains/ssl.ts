/** `linkctl domains ssl <domain>`: certificate details (issuer, validity, status, next renewal). */
import type { Command } from 'commander'
import { jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { emit, printRecord, when } from '../../output.js'
import { type IdOpts, DOMAIN_ARGUMENT, domainAction } from './shared.js'

export async function runDomainsSsl(opts: IdOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const s = await (await ctx.client()).domains.ssl(opts.id)
  await emit(ctx, s, () =>
    printRecord(ctx, [
      ['DOMAIN', s.domain],
      ['STATUS', s.sslStatus ?? ''],
      ['ISSUER', s.issuer ?? ''],
      ['SERIAL', s.serialNumber ?? ''],
      ['VALID FROM', when(s.validFrom, ctx.isTTY)],
      ['VALID TO', when(s.validTo, ctx.isTTY)],
      ['DAYS LEFT', s.daysRemaining ?? ''],
      ['NEXT RENEWAL', when(s.nextRenewalAt, ctx.isTTY)],
      ['RENEWED AT', when(s.renewedAt, ctx.isTTY)],
      ['ERROR', s.error ?? ''],
    ]),
  )
}

export function register(domains: Command): void {
  jsonOption(
    domains
      .command('ssl')
      .description('certificate details: issuer, validity, status, next renewal')
      .argument('<domain>', DOMAIN_ARGUMENT),
  ).action(domainAction(runDomainsSsl))
}
