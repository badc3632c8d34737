/** `linkctl links get <link>`: one short link, by id, short code or short URL. */
import type { Command } from 'commander'
import { jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { emit, printRecord } from '../../output.js'
import { linkFields } from './display.js'
import { findLink, REF_HELP, refAction, type LinkRefOpts } from './refs.js'

export async function runLinksGet(opts: LinkRefOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const link = await findLink(await ctx.client(), opts.ref)
  await emit(ctx, link, () => printRecord(ctx, linkFields(link, ctx.isTTY)))
}

export function register(links: Command): void {
  jsonOption(links.command('get').description('show one short link').argument('<link>', REF_HELP)).action(
    refAction(runLinksGet),
  )
}
