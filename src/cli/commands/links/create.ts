/** `linkctl links create [url]`: create a short link and print its short URL. */
import type { Command } from 'commander'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { emit } from '../../output.js'
import { createBody, linkFieldOptions, readPassword, LINK_FLAGS, type LinkFlags } from './shared.js'

export async function runLinksCreate(opts: LinkFlags & { url?: string }, ctx: Ctx): Promise<void> {
  const body = createBody(opts.url, opts)
  await requireKey(ctx)
  const password = await readPassword(opts, ctx)
  if (password !== undefined) body.password = password
  const link = await (await ctx.client()).links.create(body)
  await emit(ctx, link, () => void ctx.stdout.write(`${link.shortUrl}\n`))
}

export function register(links: Command): void {
  jsonOption(
    linkFieldOptions(
      links
        .command('create')
        .description('create a short link and print its short URL')
        .argument('[url]', 'destination URL (http:// or https://)'),
      'create',
    ),
  ).action(
    action<LinkFlags>(([url], opts, ctx) => runLinksCreate({ ...opts, ...(url ? { url } : {}) }, ctx), {
      flagOf: LINK_FLAGS,
    }),
  )
}
