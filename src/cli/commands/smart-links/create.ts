/** `linkctl smart-links create --fallback <url>`: create a smart link and print its short URL. */
import type { Command } from 'commander'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { emit } from '../../output.js'
import { domainId } from '../domains/shared.js'
import { createSmartBody, SMART_LINK_FLAGS, smartLinkFieldOptions, type SmartLinkFlags } from './shared.js'

export async function runSmartLinksCreate(opts: SmartLinkFlags, ctx: Ctx): Promise<void> {
  createSmartBody(opts) // usage errors before any request
  await requireKey(ctx)
  const domain = opts.domain === undefined ? undefined : await domainId(ctx, opts.domain)
  const link = await (await ctx.client()).smartLinks.create(createSmartBody(opts, domain))
  await emit(ctx, link, () => void ctx.stdout.write(`${link.shortUrl}\n`))
}

export function register(smart: Command): void {
  jsonOption(
    smartLinkFieldOptions(
      smart.command('create').description('create a smart link and print its short URL'),
      'create',
    ),
  ).action(
    action<SmartLinkFlags>((_args, opts, ctx) => runSmartLinksCreate(opts, ctx), {
      flagOf: SMART_LINK_FLAGS,
    }),
  )
}
