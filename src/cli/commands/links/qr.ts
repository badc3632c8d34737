/** `links qr`: the QR code of a link as a file, as bytes on stdout, or drawn on the terminal. */
import { Option, type Command } from 'commander'
import { QR_FORMATS } from '../../../contract/limits.js'
import { terminalQr } from '../../../format/qr.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { sendImage } from '../../image-output.js'
import { note } from '../../output.js'
import { intArg } from '../../parse.js'
import { findLink, linkIdOf, REF_HELP, refAction } from './refs.js'

export interface QrOpts {
  ref: string
  format?: 'svg' | 'png'
  output?: string
  size?: number
}

/**
 * With --output: the image from the API into the file (format from --format, else the file's
 * extension, else SVG). Without it on a terminal: the QR drawn with text blocks, encoding the
 * same `<shortUrl>?qr=1` as the image. Without it, piped: the image bytes on stdout.
 */
export async function runLinksQr(opts: QrOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const client = await ctx.client()
  if (opts.output === undefined && ctx.isTTY) {
    const link = await findLink(client, opts.ref)
    ctx.stdout.write(`${await terminalQr(client, link)}\n${link.shortUrl}\n`)
    return
  }
  const id = await linkIdOf(client, opts.ref)
  const written = await sendImage(ctx, opts, (format) =>
    client.links.qr(id, { format, ...(opts.size !== undefined ? { size: opts.size } : {}) }),
  )
  if (written)
    note(
      ctx,
      `Wrote the ${written.format.toUpperCase()} QR code of ${id} to ${written.file} (${written.bytes} bytes)`,
    )
}

export function register(links: Command): void {
  links
    .command('qr')
    .description('QR code of a link: to a file, to stdout when piped, or drawn on the terminal')
    .argument('<link>', REF_HELP)
    .addOption(
      new Option(
        '--format <format>',
        'image format (default: from --output: .png or .svg; else svg)',
      ).choices(QR_FORMATS),
    )
    .option('-o, --output <file>', 'write the image to this file')
    .option('--size <px>', 'PNG width in pixels (64-2048)', intArg(64, 2048))
    .action(refAction<Omit<QrOpts, 'ref'>>(runLinksQr))
}
