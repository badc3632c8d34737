/** `linkctl domains delete <domain>`: delete a domain; its links fall back to the shared domain. */
import type { Command } from 'commander'
import { requireKey, type Ctx } from '../../../session/context.js'
import { note } from '../../output.js'
import { type IdOpts, DOMAIN_ARGUMENT, domainAction } from './shared.js'
import { confirmOrStop } from '../../confirm.js'

export async function runDomainsDelete(opts: IdOpts & { yes?: boolean }, ctx: Ctx): Promise<void> {
  await confirmOrStop(ctx, {
    yes: opts.yes,
    action: `delete domain ${opts.id}`,
    question: `Delete domain ${opts.id}? Its links move to the shared domain.`,
  })
  await requireKey(ctx)
  await (await ctx.client()).domains.delete(opts.id)
  note(ctx, `Deleted domain ${opts.id}`)
}

export function register(domains: Command): void {
  domains
    .command('delete')
    .aliases(['rm', 'remove'])
    .description('delete a domain (its links fall back to the shared domain)')
    .argument('<domain>', DOMAIN_ARGUMENT)
    .option('-y, --yes', 'do not ask for confirmation (required without a terminal)')
    .action(domainAction<{ yes?: boolean }>(runDomainsDelete))
}
