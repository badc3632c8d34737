/** `linkctl smart-links delete <smart-link>`: delete a smart link (asks first on a terminal). */
import type { Command } from 'commander'
import { requireKey, type Ctx } from '../../../session/context.js'
import { note } from '../../output.js'
import { confirmOrStop } from '../../confirm.js'
import { REF_HELP, refAction, smartLinkIdOf, type SmartLinkRefOpts } from './shared.js'

export interface DeleteSmartLinkOpts extends SmartLinkRefOpts {
  yes?: boolean
}

export async function runSmartLinksDelete(opts: DeleteSmartLinkOpts, ctx: Ctx): Promise<void> {
  await confirmOrStop(ctx, {
    yes: opts.yes,
    action: `delete smart link ${opts.ref}`,
    question: `Delete smart link ${opts.ref}? Its short URL stops working.`,
  })
  await requireKey(ctx)
  const client = await ctx.client()
  const id = await smartLinkIdOf(client, opts.ref)
  await client.smartLinks.delete(id)
  note(ctx, `Deleted smart link ${id}`)
}

export function register(smart: Command): void {
  smart
    .command('delete')
    .alias('rm')
    .description('delete a smart link (asks for confirmation on a terminal)')
    .argument('<smart-link>', REF_HELP)
    .option('-y, --yes', 'do not ask for confirmation (required without a terminal)')
    .action(refAction<{ yes?: boolean }>(runSmartLinksDelete))
}
