/**
 * Webhook URL rules: HTTPS required, HTTP only for localhost and 127.0.0.1; a host the SSRF
 * guard refuses whatever DNS answers (hostRefusal) is an error; validate-url adds warnings
 * (non-standard port, an IP address or a local host as target), suggestions (root path) and a
 * security score.
 */
import { WEBHOOK_LIMITS } from '../../../src/contract/limits.js'
import type { ValidateUrlResult } from '../../../src/contract/webhooks.js'
import { hostRefusal, type GuardPolicy } from './ssrf.js'

/** The only hosts a webhook URL may use plain HTTP for. */
export const LOCAL_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1'])

export function isLocalHost(hostname: string): boolean {
  return LOCAL_HOSTS.has(hostname.toLowerCase())
}

const IPV4_RE = /^\d{1,3}(\.\d{1,3}){3}$/

/**
 * Score out of 100: HTTPS 50, a host name rather than an IP address 15, a public host rather than
 * localhost 15, the standard port 10, a dedicated path 5, no query string 5 (secrets in query
 * strings end up in access logs).
 */
export function checkWebhookUrl(text: string, policy: GuardPolicy): ValidateUrlResult {
  const errors: string[] = []
  const warnings: string[] = []
  const suggestions: string[] = []
  let url: URL | undefined
  try {
    url = new URL(text)
  } catch {
    errors.push('not a valid absolute URL')
  }
  if (!url) return { valid: false, errors, warnings, suggestions, securityScore: 0 }
  if (text.length > WEBHOOK_LIMITS.urlMax) errors.push(`longer than ${WEBHOOK_LIMITS.urlMax} characters`)
  const https = url.protocol === 'https:'
  const local = isLocalHost(url.hostname)
  if (url.protocol !== 'https:' && url.protocol !== 'http:') errors.push('the scheme must be https')
  else if (!https && !local)
    errors.push('HTTPS is required (HTTP is allowed only for localhost and 127.0.0.1)')
  const refused = hostRefusal(url.hostname, policy)
  if (refused) errors.push(refused)
  if (url.username || url.password) errors.push('credentials in the URL are not allowed; use a custom header')
  if (url.hash) errors.push('a fragment (#…) is not sent to the server; remove it')
  const ip = IPV4_RE.test(url.hostname) || url.hostname.startsWith('[')
  const standardPort = url.port === ''
  if (!standardPort) warnings.push(`non-standard port ${url.port}`)
  if (local) warnings.push('localhost is reachable only from the machine linkd runs on')
  else if (ip)
    warnings.push('an IP address as host: a host name lets you move the receiver and use TLS properly')
  if (url.pathname === '/' || url.pathname === '')
    suggestions.push('use a dedicated path such as /webhooks/linkd rather than the root path')
  if (url.search) warnings.push('query string present: secrets in URLs end up in access logs')
  let score = 0
  if (https) score += 50
  if (!ip) score += 15
  if (!local) score += 15
  if (standardPort) score += 10
  if (url.pathname !== '/' && url.pathname !== '') score += 5
  if (!url.search) score += 5
  return {
    valid: errors.length === 0,
    errors,
    warnings,
    suggestions,
    securityScore: errors.length ? 0 : score,
  }
}
