/** `linkctl smart-links update <smart-link>`: change a smart link's targets and fields. */
import type { Command } from 'commander'
import { jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { emit, printRecord } from '../../output.js'
import { domainId } from '../domains/shared.js'
import {
  REF_HELP,
  refAction,
  smartLinkFieldOptions,
  smartLinkFields,
  smartLinkIdOf,
  updateSmartBody,
  type SmartLinkFlags,
  type SmartLinkRefOpts,
  SMART_LINK_FLAGS,
} from './shared.js'
import { patchShortUrl } from '../links/shared.js'

export async function runSmartLinksUpdate(opts: SmartLinkRefOpts & SmartLinkFlags, ctx: Ctx): Promise<void> {
  updateSmartBody(opts, opts.domain === undefined ? undefined : null) // usage errors before any request
  await requireKey(ctx)
  const client = await ctx.client()
  const domain =
    opts.domain === undefined ? undefined : opts.domain === 'shared' ? null : await domainId(ctx, opts.domain)
  const id = await smartLinkIdOf(client, opts.ref)
  const body = updateSmartBody(opts, domain)
  const link = await patchShortUrl(ctx, (force) =>
    client.smartLinks.update(id, force ? { ...body, force } : body),
  )
  await emit(ctx, link, () => printRecord(ctx, smartLinkFields(link, ctx.isTTY)))
}

export function register(smart: Command): void {
  jsonOption(
    smartLinkFieldOptions(
      smart.command('update').description('change a smart link').argument('<smart-link>', REF_HELP),
      'update',
    ),
  ).action(refAction<SmartLinkFlags>(runSmartLinksUpdate, { flagOf: SMART_LINK_FLAGS }))
}
