/** `linkctl webhooks verify`: check a delivery signature offline (exit 4 when it is not valid). */
import type { Command } from 'commander'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { CliError, EXIT, UsageError } from '../../../session/exit-codes.js'
import { emit } from '../../output.js'
import { intArg } from '../../parse.js'
import { payloadOf, payloadOpts, secretOf, secretOpt, signatureModule } from './shared.js'

export async function runWebhooksVerify(opts: Record<string, unknown>, ctx: Ctx): Promise<void> {
  const secret = secretOf(opts, ctx, true)!
  const payload = await payloadOf(opts, ctx)
  const signed = {
    secret,
    payload,
    signature: String(opts.signature ?? ''),
    timestamp: String(opts.timestamp ?? ''),
  }
  let result: { valid: boolean; reason?: string | undefined }
  if (opts.remote === true) {
    // POST /api/webhooks/utilities/verify-signature: linkd's answer, with its own tolerance.
    if (opts.tolerance !== undefined)
      throw new UsageError('--tolerance is not sent with --remote (linkd uses its own)')
    await requireKey(ctx)
    result = await (await ctx.client()).webhooks.verifySignature(signed)
  } else {
    const { verifySignature } = await signatureModule()
    result = verifySignature({
      ...signed,
      ...(typeof opts.tolerance === 'number' ? { toleranceMs: opts.tolerance * 1000 } : {}),
    })
  }
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
        .option('--tolerance <seconds>', 'largest accepted age (default 300)', intArg(0))
        .option(
          '--remote',
          'ask linkd (POST /api/webhooks/utilities/verify-signature) instead of checking here',
        ),
    ),
  ).action(action<Record<string, unknown>>((_a, opts, ctx) => runWebhooksVerify(opts, ctx)))
}
