/** `linkctl webhooks sign`: sign a payload like a delivery, offline, with the signature module the daemon signs with. */
import type { Command } from 'commander'
import { action, jsonOption } from '../../action.js'
import { requireKey, type Ctx } from '../../../session/context.js'
import { emit, printRecord } from '../../output.js'
import { intArg } from '../../parse.js'
import { payloadOf, payloadOpts, secretOf, secretOpt, signatureModule } from './shared.js'

export async function runWebhooksSign(opts: Record<string, unknown>, ctx: Ctx): Promise<void> {
  const secret = secretOf(opts, ctx, true)!
  const payload = await payloadOf(opts, ctx)
  const timestamp = typeof opts.timestamp === 'number' ? opts.timestamp : Date.now()
  if (opts.remote === true) {
    // POST /api/webhooks/utilities/generate-signature: the same answer, computed by linkd.
    await requireKey(ctx)
    const result = await (await ctx.client()).webhooks.generateSignature({ secret, payload, timestamp })
    return emit(ctx, result, () => printRecord(ctx, Object.entries(result.headers)))
  }
  const { deliveryHeaders, signPayload } = await signatureModule()
  let event = 'link.created'
  try {
    const e = (JSON.parse(payload) as { event?: unknown }).event
    if (typeof e === 'string') event = e
  } catch {
    // not JSON: the header example keeps the default event
  }
  const signature = signPayload(secret, timestamp, payload)
  const headers = deliveryHeaders({
    secret,
    rawBody: payload,
    event,
    deliveryId: 'dlv_example-1',
    attempt: 1,
    timestamp,
  })
  await emit(ctx, { signature, timestamp, signedString: `${timestamp}.${payload}`, headers }, () =>
    printRecord(ctx, Object.entries(headers)),
  )
}

export function register(wh: Command): void {
  jsonOption(
    payloadOpts(
      wh
        .command('sign')
        .description('sign a payload like a delivery: signature and headers (offline)')
        .addOption(secretOpt())
        .option('--timestamp <ms>', 'Unix ms (default now)', intArg(0))
        .option(
          '--remote',
          'ask linkd (POST /api/webhooks/utilities/generate-signature) instead of signing here',
        ),
    ),
  ).action(action<Record<string, unknown>>((_a, opts, ctx) => runWebhooksSign(opts, ctx)))
}
