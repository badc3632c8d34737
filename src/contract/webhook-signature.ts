/**
 * Webhook signatures (docs/reference/webhooks.md): `X-Webhook-Signature:
 * sha256=<hex>`, HMAC-SHA256 keyed with the webhook secret over `<X-Webhook-Timestamp>.<raw_body>`,
 * the timestamp in Unix milliseconds. Shared by the daemon (signing deliveries, the utilities
 * endpoints) and linkctl (`webhooks sign|verify|listen`); node:crypto only.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import { WEBHOOK_LIMITS, type SignatureReason } from './limits.js'

export const SIGNATURE_PREFIX = 'sha256='
export const WEBHOOK_USER_AGENT = 'linkd-Webhook/2.0'
const SIGNATURE_RE = /^sha256=[0-9a-f]{64}$/
const TIMESTAMP_RE = /^\d{1,16}$/

/** `sha256=<hex>` over `<timestamp>.<raw body>` (the body's exact bytes). */
export function signPayload(secret: string, timestamp: number | string, rawBody: string | Buffer): string {
  const mac = createHmac('sha256', secret)
  mac.update(`${String(timestamp)}.`)
  mac.update(rawBody)
  return SIGNATURE_PREFIX + mac.digest('hex')
}

export type VerifyResult = { valid: true } | { valid: false; reason: SignatureReason }

export interface VerifyInput {
  secret: string
  /** The raw body exactly as received. */
  payload: string | Buffer
  /** The X-Webhook-Signature header value. */
  signature: string | undefined
  /** The X-Webhook-Timestamp header value (Unix ms). */
  timestamp: string | number | undefined
  /** The verifier's clock, Unix ms (default Date.now()). */
  now?: number
  /** Largest accepted distance between the timestamp and `now` (default 5 minutes). */
  toleranceMs?: number
}

/**
 * Checks a signature: `malformed` (missing or not `sha256=<64 hex>`, timestamp not Unix ms),
 * `mismatch` (wrong secret, altered body or timestamp), `stale` (correct, but the timestamp is
 * more than the tolerance away from `now`: a replay). Compared in constant time.
 */
export function verifySignature(input: VerifyInput): VerifyResult {
  const signature = input.signature?.trim().toLowerCase()
  const ts = input.timestamp === undefined ? '' : String(input.timestamp).trim()
  if (!signature || !SIGNATURE_RE.test(signature) || !TIMESTAMP_RE.test(ts))
    return { valid: false, reason: 'malformed' }
  const expected = Buffer.from(signPayload(input.secret, ts, input.payload))
  if (!timingSafeEqual(expected, Buffer.from(signature))) return { valid: false, reason: 'mismatch' }
  const now = input.now ?? Date.now()
  if (Math.abs(now - Number(ts)) > (input.toleranceMs ?? WEBHOOK_LIMITS.toleranceMs))
    return { valid: false, reason: 'stale' }
  return { valid: true }
}

/** The headers of one delivery attempt (custom headers are added by the sender). */
export function deliveryHeaders(opts: {
  secret: string
  rawBody: string
  event: string
  deliveryId: string
  attempt: number
  timestamp: number
}): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'User-Agent': WEBHOOK_USER_AGENT,
    'X-Webhook-Timestamp': String(opts.timestamp),
    'X-Webhook-Signature': signPayload(opts.secret, opts.timestamp, opts.rawBody),
    'X-Webhook-Event': opts.event,
    'X-Webhook-Delivery': opts.deliveryId,
    'X-Webhook-Attempt': String(opts.attempt),
  }
}
