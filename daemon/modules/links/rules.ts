import { AppError, validation } from '../../http/errors.js'
import { nestedDeeperThan, nestingMessage } from '../../http/json-guards.js'
import {
  FREE_FORM_NESTING_MAX,
  LINK_LIMITS,
  RESERVED_CODES,
  type LinkStatus,
} from '../../../src/contract/limits.js'
import type { LinkRecord } from './store.js'

/** The link's status as users and redirects see it: past its expiry, an active or inactive link is expired. */
export function effectiveStatus(l: Pick<LinkRecord, 'status' | 'expiresAt'>, now: number): LinkStatus {
  if (l.status !== 'expired' && l.expiresAt !== null && l.expiresAt <= now) return 'expired'
  return l.status
}

const RESERVED = new Set<string>(RESERVED_CODES.map((c) => c.toLowerCase()))

/** Reserved first path segments are never short codes, whatever their case. */
export function isReservedCode(code: string): boolean {
  return RESERVED.has(code.toLowerCase())
}

/** http(s) URL with a host; the schema already bounds the length and the scheme prefix. */
export function checkDestination(value: string, field = 'destinationUrl'): string {
  let url: URL | undefined
  try {
    url = new URL(value)
  } catch {
    url = undefined
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname)
    throw validation(field, 'must be a valid http:// or https:// URL with a host')
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f]/.test(value))
    throw validation(field, 'must not contain spaces or control characters')
  return value
}

export function checkSlug(slug: string): string {
  if (isReservedCode(slug))
    throw validation('customSlug', `"${slug}" is reserved (${RESERVED_CODES.join(', ')}); choose another`)
  return slug
}

/** Trims the title; an empty title is no title. */
export function normalizeTitle(title: string | null | undefined): string | null | undefined {
  if (title === undefined || title === null) return title
  const t = title.trim()
  return t === '' ? null : t
}

/** Parses an expiry that must lie in the future; null (no expiry) and undefined pass through. */
export function parseExpiry(value: string | null | undefined, now: number): number | null | undefined {
  if (value === undefined || value === null) return value
  const ms = Date.parse(value)
  if (Number.isNaN(ms)) throw validation('expiresAt', 'must be an ISO 8601 date-time')
  if (ms <= now)
    throw new AppError('ValidationError', 'expiresAt must be in the future', [
      { field: 'expiresAt', message: 'must be in the future' },
    ])
  return ms
}

/** Trimmed, without empties rejected, de-duplicated (first spelling kept, order kept). */
export function normalizeTags(tags: string[] | undefined): string[] | undefined {
  if (tags === undefined) return undefined
  const out: string[] = []
  tags.forEach((raw, i) => {
    const tag = raw.trim()
    if (tag === '') throw validation(`tags.${i}`, 'must not be empty or blank')
    if (tag.length > LINK_LIMITS.tagMax)
      throw validation(`tags.${i}`, `must be at most ${LINK_LIMITS.tagMax} characters`)
    if (!out.includes(tag)) out.push(tag)
  })
  return out
}

export function checkMetadata(
  metadata: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  if (metadata === undefined) return undefined
  // First, before anything walks it recursively (JSON.stringify below).
  if (nestedDeeperThan(metadata, FREE_FORM_NESTING_MAX))
    throw validation('metadata', nestingMessage(FREE_FORM_NESTING_MAX))
  const keys = Object.keys(metadata).length
  if (keys > LINK_LIMITS.metadataKeysMax)
    throw validation('metadata', `has ${keys} keys; at most ${LINK_LIMITS.metadataKeysMax} are allowed`)
  const bytes = Buffer.byteLength(JSON.stringify(metadata), 'utf8')
  if (bytes > LINK_LIMITS.metadataBytesMax)
    throw validation(
      'metadata',
      `is ${bytes} bytes as JSON; at most ${LINK_LIMITS.metadataBytesMax} bytes are allowed`,
    )
  return metadata
}
