/** `linkctl qr image <id>`: the QR code as a file, as bytes on stdout, or drawn on the terminal. */
import { Option, type Command } from 'commander'
import { QR_FORMATS, QR_LIMITS } from '../../../contract/limits.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { drawQr } from '../../../format/qr.js'
import { sendImage } from '../../image-output.js'
import { note } from '../../output.js'
import { intArg } from '../../parse.js'
import { REF_HELP, refAction } from './shared.js'

export interface QrImageOpts {
  ref: string
  format?: 'svg' | 'png'
  output?: string
  size?: number
}

/**
 * With --output: the image into the file (format from --format, else the file's extension, else
 * SVG). Without it on a terminal: the code drawn with text blocks (the same encoded URL; colours
 * and logo are the image's only). Without it, piped: the image bytes on stdout.
 */
export async function runQrImage(opts: QrImageOpts, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const client = await ctx.client()
  if (opts.output === undefined && ctx.isTTY) {
    const qr = await client.qrCodes.get(opts.ref)
    ctx.stdout.write(`${await drawQr(qr.encodedUrl)}\n${qr.encodedUrl}\n`)
    return
  }
  const written = await sendImage(ctx, opts, (format) =>
    client.qrCodes.image(opts.ref, { format, ...(opts.size !== undefined ? { size: opts.size } : {}) }),
  )
  if (written)
    note(
      ctx,
      `Wrote the ${written.format.toUpperCase()} image of QR code ${opts.ref} to ${written.file} (${written.bytes} bytes)`,
    )
}

export function register(qr: Command): void {
  qr.command('image')
    .description('the QR code image: to a file, to stdout when piped, or drawn on the terminal')
    .argument('<id>', REF_HELP)
    .addOption(
      new Option(
        '--format <format>',
        'image format (default: from --output: .png or .svg; else svg)',
      ).choices(QR_FORMATS),
    )
    .option('-o, --output <file>', 'write the image to this file')
    .option(
      '--size <px>',
      `width in pixels (${QR_LIMITS.sizeMin}-${QR_LIMITS.sizeMax})`,
      intArg(QR_LIMITS.sizeMin, QR_LIMITS.sizeMax),
    )
    .action(refAction<Omit<QrImageOpts, 'ref'>>(runQrImage))
}
