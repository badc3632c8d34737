/** `linkctl smart-links get <smart-link>`: one smart link, by id, short code or short URL. */
import type { Command } from 'commander'
import { jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { emit, printRecord } from '../../output.js'
import { findSmartLink, REF_HELP, refAction, smartLinkFields, type SmartLinkRefOpts } from './shared.js'

export async function runSmartLinksGet(opts: SmartLinkRefOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const link = await findSmartLink(await ctx.client(), opts.ref)
  await emit(ctx, link, () => printRecord(ctx, smartLinkFields(link, ctx.isTTY)))
}

export function register(smart: Command): void {
  jsonOption(
    smart.command('get').description('show one smart link').argument('<smart-link>', REF_HELP),
  ).action(refAction(runSmartLinksGet))
}
