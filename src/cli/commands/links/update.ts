/** `linkctl links update <link>`: change a short link's fields. */
import type { Command } from 'commander'
import { jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { emit, printRecord } from '../../output.js'
import { domainId } from '../domains/shared.js'
import {
  linkFieldOptions,
  patchShortUrl,
  readPassword,
  LINK_FLAGS,
  updateBody,
  type LinkFlags,
} from './shared.js'
import { linkFields } from './display.js'
import { linkIdOf, REF_HELP, refAction, type LinkRefOpts } from './refs.js'

export async function runLinksUpdate(opts: LinkRefOpts & LinkFlags, ctx: Ctx): Promise<void> {
  updateBody(opts, opts.domain === undefined ? undefined : null) // usage errors before any request
  await requireKey(ctx)
  const client = await ctx.client()
  const domain =
    opts.domain === undefined ? undefined : opts.domain === 'shared' ? null : await domainId(ctx, opts.domain)
  const body = updateBody(opts, domain)
  const password = await readPassword(opts, ctx)
  if (password !== undefined) body.password = password
  const id = await linkIdOf(client, opts.ref)
  const link = await patchShortUrl(ctx, (force) => client.links.update(id, force ? { ...body, force } : body))
  await emit(ctx, link, () => printRecord(ctx, linkFields(link, ctx.isTTY)))
}

export function register(links: Command): void {
  jsonOption(
    linkFieldOptions(
      links.command('update').description('change a short link').argument('<link>', REF_HELP),
      'update',
    ),
  ).action(refAction<LinkFlags>(runLinksUpdate, { flagOf: LINK_FLAGS }))
}
