/**
 * API key values and fields: generation, hashing, masking, effective status, the API shape, and
 * the parsing of expiry, IP allowlist and origins (pure functions, no I/O).
 */
import { iso, isoOrNull, utcDay, utcMonth } from '../../clock.js'
import { randomToken, sha256Hex } from '../../crypto.js'
import { AppError, validation } from '../../http/errors.js'
import { formatAllowEntry, parseAllowEntry } from '../../http/ip-allowlist.js'
import type { ApiKey } from '../../../src/contract/keys.js'
import type { KeyRecord } from './store.js'

export const KEY_PREFIX = 'lk'

/** Hash of the part after `lk_`, as stored. */
export function hashKeyValue(raw: string): string {
  return sha256Hex(raw.slice(KEY_PREFIX.length + 1))
}

/** `lk_•••` + last four characters. */
export function maskKey(lastFour: string): string {
  return `${KEY_PREFIX}_\u2022\u2022\u2022${lastFour}`
}

/** Status as users see it: an active or inactive key past its expiry is expired. */
export function effectiveStatus(k: KeyRecord, now: number): KeyRecord['status'] {
  if ((k.status === 'active' || k.status === 'inactive') && k.expiresAt !== null && k.expiresAt <= now)
    return 'expired'
  return k.status
}

export function presentKey(k: KeyRecord, now: number): ApiKey {
  const today = utcDay(now)
  const month = utcMonth(now)
  return {
    id: k.id,
    name: k.name,
    description: k.description,
    memberId: k.memberId,
    environment: k.environment,
    permissions: k.permissions,
    requestLimit: k.requestLimit,
    timePeriod: k.timePeriod,
    allowedIps: k.allowedIps,
    allowedOrigins: k.allowedOrigins,
    expiresAt: isoOrNull(k.expiresAt),
    status: effectiveStatus(k, now),
    preview: maskKey(k.lastFour),
    createdAt: iso(k.createdAt),
    updatedAt: iso(k.updatedAt),
    lastUsedAt: isoOrNull(k.lastUsedAt),
    lastUsedIp: k.lastUsedIp,
    revokedAt: isoOrNull(k.revokedAt),
    usage: {
      totalRequests: k.totalRequests,
      requestsToday: k.usageDay === today ? k.requestsToday : 0,
      requestsThisMonth: k.usageMonth === month ? k.requestsThisMonth : 0,
    },
  }
}

export function generateValue(environment: 'live' | 'test'): { raw: string; hash: string; lastFour: string } {
  const raw = `${KEY_PREFIX}_${environment}_${randomToken()}`
  return { raw, hash: hashKeyValue(raw), lastFour: raw.slice(-4) }
}

export function parseIps(list: string[]): string[] {
  const details = list.flatMap((v, i) =>
    parseAllowEntry(v)
      ? []
      : [{ field: `allowedIps.${i}`, message: `"${v}" is not an IP address or CIDR range` }],
  )
  if (details.length) throw new AppError('ValidationError', details[0]!.message, details)
  return [...new Set(list.map((v) => formatAllowEntry(parseAllowEntry(v)!)))]
}

export function parseOrigins(list: string[]): string[] {
  const out: string[] = []
  list.forEach((v, i) => {
    let origin: string | undefined
    try {
      const u = new URL(v)
      if (
        (u.protocol === 'http:' || u.protocol === 'https:') &&
        (u.pathname === '/' || u.pathname === '') &&
        !u.search &&
        !u.hash
      )
        origin = u.origin
    } catch {
      origin = undefined
    }
    if (!origin)
      throw validation(`allowedOrigins.${i}`, `"${v}" is not an origin such as https://app.example.com`)
    out.push(origin)
  })
  return [...new Set(out)]
}
