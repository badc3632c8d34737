/**
 * `links share <link>`: what you need to share a link. The short URL on its own line (the only
 * output when piped, so `linkctl links share abc | pbcopy` copies it); on a terminal also its
 * QR code and a one-line summary; --json the short URL, what the QR encodes, and the link.
 */
import type { Command } from 'commander'
import type { Link } from '../../../contract/links.js'
import { qrTarget, terminalQr } from '../../../format/qr.js'
import { jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { plural, printJson, when } from '../../output.js'
import { findLink, REF_HELP, refAction, type LinkRefOpts } from './refs.js'

export interface ShareOpts extends LinkRefOpts {
  /** `--no-qr` sets this to false. */
  qr?: boolean
}

/** `Title → https://dest · 12 clicks · active · created 3 days ago · expires in 2 days`. */
export function shareSummary(link: Link, now: number = Date.now()): string {
  const parts = [
    `${link.title ? `${link.title} → ` : '→ '}${link.destinationUrl}`,
    plural(link.clicks, 'click'),
    link.status,
    `created ${when(link.createdAt, true, 'minute', now)}`,
  ]
  if (link.expiresAt) {
    const expiry = when(link.expiresAt, true, 'minute', now)
    parts.push(Date.parse(link.expiresAt) > now ? `expires ${expiry}` : `expired ${expiry}`)
  }
  if (link.tags.length > 0) parts.push(link.tags.map((t) => `#${t}`).join(' '))
  return parts.join(' · ')
}

export async function runLinksShare(opts: ShareOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const client = await ctx.client()
  const link = await findLink(client, opts.ref)
  if (ctx.json) return printJson(ctx, { shortUrl: link.shortUrl, qrTarget: qrTarget(link), link })
  ctx.stdout.write(`${link.shortUrl}\n`)
  if (!ctx.isTTY) return
  if (opts.qr !== false) ctx.stdout.write(`\n${await terminalQr(client, link)}\n`)
  ctx.stdout.write(`${shareSummary(link)}\n`)
}

export function register(links: Command): void {
  jsonOption(
    links
      .command('share')
      .description('the short URL to copy, its QR code on the terminal and a one-line summary')
      .argument('<link>', REF_HELP)
      .option('--no-qr', 'leave out the QR code'),
  ).action(refAction<Omit<ShareOpts, 'ref'>>(runLinksShare))
}
