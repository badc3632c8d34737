/** `linkctl domains check <domain>`: DNS propagation per resolver and record. */
import type { Command } from 'commander'
import { jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { emit, note, printRows, warn } from '../../output.js'
import { dnsErrorText } from '../../../format/cells.js'
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
      { header: 'STATUS', value: (x) => (x.a.reachable ? x.a.status : 'unreachable') },
      { header: 'FOUND', value: (x) => x.a.found.join(' ') || (x.a.error ? dnsErrorText(x.a.error) : '') },
    ])
    // A resolver that was not reached says nothing about propagation: named apart, once.
    const unreached = new Map<string, string>()
    for (const { a } of rows) if (!a.reachable) unreached.set(a.resolver, a.error ?? '')
    for (const [resolver, error] of unreached)
      warn(ctx, `resolver ${resolver} unreachable${error ? ` (${dnsErrorText(error)})` : ''}`)
    if (!ctx.isTTY) return
    const answered = rows.filter((x) => x.a.reachable)
    if (answered.length === 0) note(ctx, 'No resolver answered: propagation unknown.')
    else if (answered.every((x) => x.a.status === 'Verified'))
      note(
        ctx,
        unreached.size ? 'Propagated on every resolver that answered.' : 'Propagated on every resolver.',
      )
    else note(ctx, 'Not propagated everywhere yet.')
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
