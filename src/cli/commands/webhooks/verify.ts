/** `linkctl webhooks verify`: check a delivery signature offline (exit 4 when it is not valid). */
import type { Command } from 'commander'
import { action, jsonOption } from '../../action.js'
import type { Ctx } from '../../context.js'
import { CliError, EXIT } from '../../exit-codes.js'
import { emit } from '../../output.js'
import { intArg } from '../../parse.js'
import { payloadOf, payloadOpts, secretOf, secretOpt, signatureModule } from './shared.js'

export async function runWebhooksVerify(opts: Record<string, unknown>, ctx: Ctx): Promise<void> {
  const { verifySignature } = await signatureModule()
  const secret = secretOf(opts, ctx, true)!
  const payload = await payloadOf(opts, ctx)
  const result = verifySignature({
    secret,
    payload,
    signature: String(opts.signature ?? ''),
    timestamp: String(opts.timestamp ?? ''),
    ...(typeof opts.tolerance === 'number' ? { toleranceMs: opts.tolerance * 1000 } : {}),
  })
  await emit(
    ctx,
    result,
    () => void ctx.stdout.write(result.valid ? 'valid\n' : `invalid: ${result.reason}\n`),
  )
  if (!result.valid) throw new CliError(`signature is not valid: ${result.reason}`, EXIT.auth)
}

export function register(wh: Command): void {
  jsonOption(
    payloadOpts(
      wh
        .command('verify')
        .description('verify a signature (offline); exit 4 when it is not valid')
        .addOption(secretOpt())
        .requiredOption('--signature <sig>', 'X-Webhook-Signature value (sha256=...)')
        .requiredOption('--timestamp <ms>', 'X-Webhook-Timestamp value (Unix ms)')
        .option('--tolerance <seconds>', 'largest accepted age (default 300)', intArg(0)),
    ),
  ).action(action<Record<string, unknown>>((_a, opts, ctx) => runWebhooksVerify(opts, ctx)))
}
