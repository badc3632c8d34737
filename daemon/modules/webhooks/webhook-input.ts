/**
 * Checks of what a client sends for a webhook: custom headers (names, reserved ones, values) and
 * the URL under this server's rules; each refusal is a 400 naming the field.
 */
import { AppError, type ErrorDetail } from '../../http/errors.js'
import { WEBHOOK_LIMITS } from '../../../src/contract/limits.js'
import type { GuardPolicy } from './ssrf.js'
import { checkWebhookUrl } from './url-rules.js'

/** Names a custom header may not use: the delivery's own headers and what HTTP manages itself. */
const RESERVED_HEADERS = new Set([
  'content-type',
  'user-agent',
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'proxy-connection',
])
const TOKEN_RE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/
// Visible ASCII, space and tab: no line breaks (header injection) and nothing undici refuses.
const VALUE_RE = /^[\t\x20-\x7e]*$/

export function checkHeaders(headers: Record<string, string>): Record<string, string> {
  const details: ErrorDetail[] = []
  const names = Object.keys(headers)
  if (names.length > WEBHOOK_LIMITS.headersMax)
    details.push({ field: 'headers', message: `at most ${WEBHOOK_LIMITS.headersMax} custom headers` })
  const seen = new Set<string>()
  for (const name of names) {
    const lower = name.toLowerCase()
    const field = `headers.${name}`
    if (!TOKEN_RE.test(name) || name.length > WEBHOOK_LIMITS.headerNameMax)
      details.push({
        field,
        message: `not a valid header name (1-${WEBHOOK_LIMITS.headerNameMax} token characters)`,
      })
    else if (RESERVED_HEADERS.has(lower) || lower.startsWith('x-webhook-'))
      details.push({
        field,
        message: 'is reserved (Content-Type, User-Agent, X-Webhook-* and hop-by-hop headers)',
      })
    else if (seen.has(lower))
      details.push({ field, message: 'given twice (header names are case-insensitive)' })
    if (!VALUE_RE.test(headers[name] ?? ''))
      details.push({ field, message: 'the value may hold visible ASCII characters, spaces and tabs only' })
    seen.add(lower)
  }
  if (details.length)
    throw new AppError('ValidationError', `${details[0]!.field}: ${details[0]!.message}`, details)
  return { ...headers }
}

export function checkUrl(url: string, policy: GuardPolicy): string {
  const r = checkWebhookUrl(url, policy)
  if (!r.valid)
    throw new AppError(
      'ValidationError',
      `url: ${r.errors.join('; ')}`,
      r.errors.map((message) => ({ field: 'url', message })),
    )
  return url
}
