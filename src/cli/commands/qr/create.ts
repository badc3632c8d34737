/** `linkctl qr create <link>`: a styled QR code of a link or smart link; prints its encoded URL. */
import type { Command } from 'commander'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { emit } from '../../output.js'
import { qrFieldOptions, STYLE_FLAGS, styleOf, targetOf, type QrFlags } from './shared.js'

export async function runQrCreate(opts: QrFlags & { ref: string }, ctx: Ctx): Promise<void> {
  const style = await styleOf(opts) // a bad --logo file before any request
  await requireKey(ctx)
  const client = await ctx.client()
  const qr = await client.qrCodes.create({
    ...(await targetOf(client, opts.ref)),
    ...(opts.title !== undefined && opts.title !== '' ? { title: opts.title } : {}),
    ...(style ? { style } : {}),
  })
  await emit(ctx, qr, () => void ctx.stdout.write(`${qr.id}\t${qr.encodedUrl}\n`))
}

export function register(qr: Command): void {
  jsonOption(
    qrFieldOptions(
      qr
        .command('create')
        .description('create a QR code of a link or smart link (one per flyer or poster: scans count apart)')
        .argument('<link>', 'link or smart link: id (lnk_... / sml_...), short code or short URL'),
      'create',
    ),
  ).action(
    action<QrFlags>(([ref], opts, ctx) => runQrCreate({ ...opts, ref: ref ?? '' }, ctx), {
      flagOf: STYLE_FLAGS,
    }),
  )
}
