/** `linkctl links delete <link>`: delete a short link (asks first on a terminal). */
import type { Command } from 'commander'
import { requireKey, type Ctx } from '../../../session/context.js'
import { note } from '../../output.js'
import { linkIdOf, REF_HELP, refAction, type LinkRefOpts } from './refs.js'
import { confirmOrStop } from '../../confirm.js'

export interface DeleteLinkOpts extends LinkRefOpts {
  yes?: boolean
}

export async function runLinksDelete(opts: DeleteLinkOpts, ctx: Ctx): Promise<void> {
  await confirmOrStop(ctx, {
    yes: opts.yes,
    action: `delete link ${opts.ref}`,
    question: `Delete link ${opts.ref}? Its short URL stops working.`,
  })
  await requireKey(ctx)
  const client = await ctx.client()
  const id = await linkIdOf(client, opts.ref)
  await client.links.delete(id)
  note(ctx, `Deleted link ${id}`)
}

export function register(links: Command): void {
  links
    .command('delete')
    .alias('rm')
    .description('delete a short link (asks for confirmation on a terminal)')
    .argument('<link>', REF_HELP)
    .option('-y, --yes', 'do not ask for confirmation (required without a terminal)')
    .action(refAction<{ yes?: boolean }>(runLinksDelete))
}
