/** `linkctl qr update <id>`: change a QR code's title or style (its encoded URL never changes). */
import type { Command } from 'commander'
import type { UpdateQrCodeBody } from '../../../contract/qr-codes.js'
import { jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { UsageError } from '../../../session/exit-codes.js'
import { emit, printRecord } from '../../output.js'
import {
  qrFieldOptions,
  qrFields,
  REF_HELP,
  refAction,
  STYLE_FLAGS,
  styleOf,
  type QrFlags,
} from './shared.js'

export async function runQrUpdate(opts: QrFlags & { ref: string }, ctx: Ctx): Promise<void> {
  const body: UpdateQrCodeBody = {}
  if (opts.title !== undefined) body.title = opts.title === '' ? null : opts.title
  const style = await styleOf(opts)
  if (style) body.style = style
  if (Object.keys(body).length === 0) throw new UsageError('nothing to update: pass at least one field flag')
  await requireKey(ctx)
  const qr = await (await ctx.client()).qrCodes.update(opts.ref, body)
  await emit(ctx, qr, () => printRecord(ctx, qrFields(qr, ctx.isTTY)))
}

export function register(qr: Command): void {
  jsonOption(
    qrFieldOptions(qr.command('update').description('change a QR code').argument('<id>', REF_HELP), 'update'),
  ).action(refAction<QrFlags>(runQrUpdate, { flagOf: STYLE_FLAGS }))
}
