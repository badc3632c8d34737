/**
 * Checks of what a client sends for a webhook: custom headers (names, reserved ones, values) and
 * the URL under this server's rules; each refusal is a 400 naming the field.
 */
import { AppError, type ErrorDetail } from '../../http/errors.js'
import { WEBHOOK_LIMITS, type WebhookFormat } from '../../../src/contract/limits.js'
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

/**
 * The body a chat service's incoming-webhook URL accepts, or undefined for any other URL: Slack's
 * `hooks.slack.com/services/…` takes `slack`; Discord's `…/api/webhooks/<id>/<token>` takes
 * `discord`, and `slack` with the `/slack` suffix. Anything else they answer with a 400, so a
 * webhook would only fail (and be suspended).
 */
export function chatFormatOf(url: string): WebhookFormat | undefined {
  let u: URL
  try {
    u = new URL(url)
  } catch {
    return undefined
  }
  const host = u.hostname.toLowerCase()
  if (host === 'hooks.slack.com' && u.pathname.startsWith('/services/')) return 'slack'
  if (/^(?:(?:ptb|canary)\.)?discord(?:app)?\.com$/.test(host)) {
    const m = /^\/api\/(?:v\d+\/)?webhooks\/[^/]+\/[^/]+(\/[^/]*)?\/?$/.exec(u.pathname)
    if (m) return m[1] === '/slack' ? 'slack' : m[1] ? undefined : 'discord'
  }
  return undefined
}

/** A 400 on `format` when the URL is a chat service's that refuses bodies of `format`. */
export function checkChatFormat(url: string, format: WebhookFormat): void {
  const takes = chatFormatOf(url)
  if (takes === undefined || takes === format) return
  const service =
    takes === 'slack' && !/discord/i.test(url) ? 'a Slack incoming webhook' : 'this Discord webhook URL'
  const message = `${service} takes format '${takes}' (it refuses '${format}' bodies, so every delivery would fail)`
  throw new AppError('ValidationError', `format: ${message}`, [{ field: 'format', message }])
}
