/**
 * Apple SKAdNetwork postbacks: the fields of each version (2.2, 3.0, 4.0; later 4.x read as 4.0),
 * the string Apple signs, and the ECDSA P-256 / SHA-256 check of `attribution-signature` against a
 * public key given as a parameter (production: Apple's, below; tests: their own key).
 */
import { createPublicKey, verify, type KeyObject } from 'node:crypto'
import { AppError, type ErrorDetail } from '../../../http/errors.js'
import { COARSE_BANDS, SOURCE_IDENTIFIER_PATTERN, type CoarseBand } from '../../../../src/contract/skan.js'

/** Apple's public key for postbacks of version 2.1 and later (SPKI DER, base64). */
export const APPLE_SKAN_PUBLIC_KEY =
  'MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEWdp8GPcGqmhgzEFj9Z2nSpQVddayaPe4FMzqM9wib1+aHaaIzoHoLN9zW4K8y4SPykE3YVK3sVqW6Af0lfx3gg=='

/** A public key from its base64 SPKI DER. */
export const publicKeyOf = (spkiBase64: string): KeyObject =>
  createPublicKey({ key: Buffer.from(spkiBase64, 'base64'), format: 'der', type: 'spki' })

/** U+2063 INVISIBLE SEPARATOR: what joins the signed fields. */
export const SEPARATOR = '\u2063'

export type PostbackFamily = '2.2' | '3.0' | '4.0'

/** A postback whose fields passed their version's checks. */
export interface Postback {
  /** As sent (`4.1` stays `4.1` in the signed string). */
  version: string
  /** The rules it is read by. */
  family: PostbackFamily
  adNetworkId: string
  /** 4.0 `source-identifier`, or 2.2/3.0 `campaign-id` in decimal. */
  sourceIdentifier: string
  appId: number
  transactionId: string
  redownload: boolean
  sourceAppId: number | null
  sourceDomain: string | null
  fidelityType: number
  /** 2.2 has no did-win: only the winner got a postback. */
  didWin: boolean
  /** 0 before 4.0. */
  sequenceIndex: number
  fineValue: number | null
  coarseValue: CoarseBand | null
  signature: string | null
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const HOSTNAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i
const SOURCE_IDENTIFIER = new RegExp(SOURCE_IDENTIFIER_PATTERN)

function familyOf(version: unknown): PostbackFamily | undefined {
  if (version === '2.2' || version === '3.0') return version
  if (typeof version === 'string' && /^4\.\d{1,3}$/.test(version)) return '4.0'
  return undefined
}

/**
 * The postback's fields checked for its version: every problem listed (400 with details), so that
 * an ad network sees them all at once.
 */
export function parsePostback(body: unknown): Postback {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new AppError('ValidationError', 'the postback must be a JSON object', [
      { field: 'body', message: 'must be a JSON object' },
    ])
  const b = body as Record<string, unknown>
  const problems: ErrorDetail[] = []
  const bad = (field: string, message: string) => problems.push({ field, message })
  const family = familyOf(b.version)
  if (!family) {
    bad('version', 'must be 2.2, 3.0 or 4.x')
    throw invalid(problems)
  }

  const has = (f: string) => b[f] !== undefined && b[f] !== null
  const int = (f: string, min: number, max: number, required: boolean): number | null => {
    if (!has(f)) {
      if (required) bad(f, 'is required')
      return null
    }
    const v = b[f]
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
      bad(f, `must be an integer from ${min} to ${max}`)
      return null
    }
    return v
  }
  const bool = (f: string, required: boolean): boolean | null => {
    if (!has(f)) {
      if (required) bad(f, 'is required')
      return null
    }
    if (typeof b[f] !== 'boolean') {
      bad(f, 'must be true or false')
      return null
    }
    return b[f] as boolean
  }
  const text = (f: string, test: (s: string) => boolean, rule: string, required: boolean): string | null => {
    if (!has(f)) {
      if (required) bad(f, 'is required')
      return null
    }
    const v = b[f]
    if (typeof v !== 'string' || !test(v)) {
      bad(f, rule)
      return null
    }
    return v
  }

  const adNetworkId = text(
    'ad-network-id',
    (s) => s.length > 0 && s.length <= 255,
    'must be a non-empty string (at most 255 characters)',
    true,
  )
  const four = family === '4.0'
  const sourceIdentifier = four
    ? text('source-identifier', (s) => SOURCE_IDENTIFIER.test(s), 'must be a string of 2-4 digits', true)
    : int('campaign-id', 1, 100, true)
  const appId = int('app-id', 1, Number.MAX_SAFE_INTEGER, true)
  const transactionId = text('transaction-id', (s) => UUID.test(s), 'must be a UUID', true)
  const redownload = bool('redownload', true)
  const sourceAppId = int('source-app-id', 1, Number.MAX_SAFE_INTEGER, false)
  const sourceDomain = four
    ? text('source-domain', (s) => HOSTNAME.test(s), 'must be a host name', false)
    : null
  if (has('source-app-id') && has('source-domain') && four)
    bad('source-domain', 'must not be sent with source-app-id (one of them at most)')
  const fidelityType = int('fidelity-type', 0, 1, true)
  const didWin = family === '2.2' ? true : bool('did-win', true)
  const sequenceIndex = four ? int('postback-sequence-index', 0, 2, true) : 0
  const fineValue = int('conversion-value', 0, 63, false)
  if (fineValue !== null && sequenceIndex !== null && sequenceIndex > 0)
    bad('conversion-value', 'is sent only in the first postback (postback-sequence-index 0)')
  const coarseValue = four
    ? text(
        'coarse-conversion-value',
        (s) => (COARSE_BANDS as readonly string[]).includes(s),
        'must be low, medium or high',
        false,
      )
    : null
  const signature = text('attribution-signature', (s) => s.length <= 1_000, 'must be a base64 string', false)
  if (problems.length) throw invalid(problems)

  return {
    version: b.version as string,
    family,
    adNetworkId: adNetworkId!,
    sourceIdentifier: String(sourceIdentifier),
    appId: appId!,
    transactionId: transactionId!,
    redownload: redownload!,
    sourceAppId,
    sourceDomain,
    fidelityType: fidelityType!,
    didWin: didWin!,
    sequenceIndex: sequenceIndex!,
    fineValue,
    coarseValue: coarseValue as CoarseBand | null,
    signature,
  }
}

const invalid = (problems: ErrorDetail[]) =>
  new AppError(
    'ValidationError',
    `the postback is invalid: ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}`,
    problems,
  )

/**
 * The string Apple signs, fields joined with U+2063 in the version's order (booleans as
 * true/false, integers in decimal): conversion values are not part of it.
 */
export function signedString(p: Postback): string {
  const source =
    p.sourceAppId !== null ? [String(p.sourceAppId)] : p.sourceDomain !== null ? [p.sourceDomain] : []
  const fields = [
    p.version,
    p.adNetworkId,
    p.sourceIdentifier,
    String(p.appId),
    p.transactionId,
    String(p.redownload),
    ...source,
    String(p.fidelityType),
  ]
  if (p.family !== '2.2') fields.push(String(p.didWin))
  if (p.family === '4.0') fields.push(String(p.sequenceIndex))
  return fields.join(SEPARATOR)
}

/** Whether the postback's signature verifies against one of the keys (false when unsigned). */
export function verifyPostback(p: Postback, keys: readonly KeyObject[]): boolean {
  if (!p.signature) return false
  const data = Buffer.from(signedString(p), 'utf8')
  const signature = Buffer.from(p.signature, 'base64')
  return keys.some((key) => {
    try {
      return verify('sha256', data, { key, dsaEncoding: 'der' }, signature)
    } catch {
      return false
    }
  })
}
