/** `linkctl qr get <id>`: one QR code with its style and scans. */
import type { Command } from 'commander'
import { jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { emit, printRecord } from '../../output.js'
import { qrFields, REF_HELP, refAction } from './shared.js'

export async function runQrGet(opts: { ref: string }, ctx: Ctx): Promise<void> {
  await requireKey(ctx)
  const qr = await (await ctx.client()).qrCodes.get(opts.ref)
  await emit(ctx, qr, () => printRecord(ctx, qrFields(qr, ctx.isTTY)))
}

export function register(qr: Command): void {
  jsonOption(qr.command('get').description('show one QR code').argument('<id>', REF_HELP)).action(
    refAction(runQrGet),
  )
}
