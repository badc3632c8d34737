/** `linkctl domains check <domain>`: DNS propagation per resolver and record. */
import type { Command } from 'commander'
import { jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../context.js'
import { emit, note, printRows } from '../../output.js'
import { type IdOpts, DOMAIN_ARGUMENT, domainAction } from './shared.js'

export async function runDomainsCheck(opts: IdOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const p = await (await ctx.client()).domains.checkPropagation(opts.id)
  await emit(ctx, p, async () => {
    const rows = p.records.flatMap((r) => r.resolvers.map((a) => ({ r, a })))
    await printRows(ctx, rows, [
      { header: 'RESOLVER', value: (x) => x.a.resolver },
      { header: 'TYPE', value: (x) => x.r.type },
      { header: 'NAME', value: (x) => x.r.name },
      { header: 'STATUS', value: (x) => x.a.status },
      { header: 'FOUND', value: (x) => x.a.found.join(' ') || x.a.error || '' },
    ])
    if (ctx.isTTY)
      note(ctx, p.propagated ? 'Propagated on every resolver.' : 'Not propagated everywhere yet.')
  })
}

export function register(domains: Command): void {
  jsonOption(
    domains
      .command('check')
      .description('DNS propagation per resolver and record')
      .argument('<domain>', DOMAIN_ARGUMENT),
  ).action(domainAction(runDomainsCheck))
}
