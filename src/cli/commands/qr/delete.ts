/** `linkctl qr delete <id>`: delete a QR code (asks first on a terminal). */
import type { Command } from 'commander'
import { requireKey, type Ctx } from '../../../session/context.js'
import { note } from '../../output.js'
import { confirmOrStop } from '../../confirm.js'
import { REF_HELP, refAction } from './shared.js'

export async function runQrDelete(opts: { ref: string; yes?: boolean }, ctx: Ctx): Promise<void> {
  await confirmOrStop(ctx, {
    yes: opts.yes,
    action: `delete QR code ${opts.ref}`,
    question: `Delete QR code ${opts.ref}? Printed copies keep working; their scans then count on the link only.`,
  })
  await requireKey(ctx)
  await (await ctx.client()).qrCodes.delete(opts.ref)
  note(ctx, `Deleted QR code ${opts.ref}`)
}

export function register(qr: Command): void {
  qr.command('delete')
    .alias('rm')
    .description('delete a QR code (asks for confirmation on a terminal)')
    .argument('<id>', REF_HELP)
    .option('-y, --yes', 'do not ask for confirmation (required without a terminal)')
    .action(refAction<{ yes?: boolean }>(runQrDelete))
}
