/** `linkctl domains stats`: custom domain statistics. */
import type { Command } from 'commander'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { emit, printRecord } from '../../output.js'

export async function runDomainsStats(_opts: object, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const s = await (await ctx.client()).domains.stats()
  await emit(ctx, s, () =>
    printRecord(ctx, [
      ['TOTAL', s.totalDomains],
      ['ACTIVE', s.activeDomains],
      ['WITH SSL', s.domainsWithSsl],
      ['CLICKS', s.totalClicks],
    ]),
  )
}

export function register(domains: Command): void {
  jsonOption(domains.command('stats').description('custom domain statistics')).action(
    action<object>((_a, opts, ctx) => runDomainsStats(opts, ctx)),
  )
}
