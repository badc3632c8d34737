/**
 * Text people read back (names, titles, tags, descriptions, reasons): the one definition, as JSON
 * Schema patterns shared by validation, OpenAPI and clients, of what it may not hold (control,
 * bidirectional, zero-width and invisible characters, lone surrogates), which make a name read
 * differently from what it is (`evil\u202Egnp.exe` shows as `evilexe.png`).
 */
import Type, { type TString } from 'typebox'
import { AD_NETWORK_PATTERN, SOURCE_IDENTIFIER_PATTERN } from './skan-limits.js'
import {
  ANDROID_PACKAGE_PATTERN,
  APPLE_APP_ID_PATTERN,
  APPLE_PATH_PATTERN,
  SHA256_FINGERPRINT_PATTERN,
} from './limits.js'

/** The refused characters of the BMP besides the C0 controls (a character-class body). */
const INVISIBLE =
  '\\u007f-\\u009f\\u00ad\\u034f\\u061c\\u115f\\u1160\\u17b4\\u17b5\\u180e\\u200b-\\u200f\\u2028-\\u202e' +
  '\\u2060-\\u206f\\u2800\\u3164\\ufeff\\uffa0\\ufff9-\\ufffb'
/** The refused characters of the BMP (a character-class body). */
const REFUSED = `\\u0000-\\u001f${INVISIBLE}`
/** The same, but tab, line feed and carriage return are allowed (multi-line text). */
const REFUSED_MULTILINE = `\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f${INVISIBLE}`
/**
 * A surrogate pair (a character beyond the BMP) other than U+1D173-U+1D17A and the tag characters
 * U+E0000-U+E007F. The patterns are written over UTF-16 code units, so that they mean the same to
 * every regular-expression engine (the OpenAPI document's readers compile them without the `u`
 * flag, and so does the daemon's ajv): a surrogate outside such a pair is refused.
 */
const PAIR =
  '[\\ud800-\\ud833\\ud835-\\udb3f\\udb41-\\udbff][\\udc00-\\udfff]' +
  '|\\ud834[\\udc00-\\udd72\\udd7b-\\udfff]|\\udb40[\\udc80-\\udfff]'
/** One allowed character: a BMP character outside `refused` and the surrogates, or a pair. */
const allowed = (refused: string) => `(?:[^${refused}\\ud800-\\udfff]|${PAIR})`

/** Single-line text without refused characters (may be empty or blank). */
export const PLAIN_TEXT_PATTERN = `^${allowed(REFUSED)}*$`
/**
 * Like PLAIN_TEXT_PATTERN, with at least one visible character. Written so that it runs in linear
 * time (only spaces may come before the first visible character): ajv checks the pattern even of
 * a value already too long.
 */
export const VISIBLE_TEXT_PATTERN = `^[^${REFUSED}\\ud800-\\udfff\\S]*(?:[^${REFUSED}\\ud800-\\udfff\\s]|${PAIR})${allowed(REFUSED)}*$`
/** Multi-line text without refused characters (tabs and line breaks allowed). */
export const MULTILINE_TEXT_PATTERN = `^${allowed(REFUSED_MULTILINE)}*$`

const REFUSED_WORDS = 'control, bidirectional-override, zero-width or other invisible characters'

/** An http:// or https:// URL (any case of the scheme). */
export const HTTP_URL_PATTERN = '^[Hh][Tt][Tt][Pp][Ss]?://'
/** Short codes, custom aliases and slugs. */
export const SLUG_PATTERN = '^[A-Za-z0-9_-]+$'
/** A gaming event type: a letter, then letters, digits and `_ . : -`. */
export const EVENT_TYPE_PATTERN = '^[A-Za-z][A-Za-z0-9_.:-]*$'
/** A query date: an ISO 8601 date, optionally with a time. */
export const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}'
/** A calendar day alone, YYYY-MM-DD. */
export const DAY_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$'
/** An ISO 4217 currency code, upper case. */
export const CURRENCY_PATTERN = '^[A-Z]{3}$'
/** A safety list's name: a letter or digit, then letters, digits, dots, hyphens and underscores. */
export const LIST_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]*$'
/** An e-mail address: something, an @, a domain with a dot; no spaces. */
export const EMAIL_PATTERN = '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$'
/** An ISO 3166-1 alpha-2 country code, either case. */
export const COUNTRY_PATTERN = '^[A-Za-z]{2}$'

/** The formats `date-time` and `date` in words (validation details say "must be <words>"). */
export const DATE_TIME_WORDS = 'a date and time such as 2026-05-01T12:00:00Z'
export const DATE_WORDS = 'a date such as 2026-05-01'
/**
 * A query's date or date-time (startDate, endDate) that is not one, or names a day its month does
 * not have: the same words whether the schema or the service finds it, on every route.
 */
export const DATE_PARAM_WORDS = `must be ${DATE_TIME_WORDS} or ${DATE_WORDS}`

/**
 * The human message of every pattern in the contract (ajv's would quote the regular expression;
 * a test walks the schemas and fails on a pattern missing here).
 */
export const PATTERN_MESSAGES: Readonly<Record<string, string>> = {
  [PLAIN_TEXT_PATTERN]: `must not contain ${REFUSED_WORDS}`,
  [VISIBLE_TEXT_PATTERN]: `must have a visible character and must not contain ${REFUSED_WORDS}`,
  [MULTILINE_TEXT_PATTERN]: `must not contain ${REFUSED_WORDS} (tabs and line breaks are fine)`,
  [HTTP_URL_PATTERN]: 'must start with http:// or https://',
  [SLUG_PATTERN]: 'may only contain letters, digits, hyphens and underscores',
  [LIST_NAME_PATTERN]:
    'must start with a letter or digit and contain only letters, digits, dots, hyphens and underscores',
  [EVENT_TYPE_PATTERN]:
    'must start with a letter and contain only letters, digits and the characters _ . : -',
  [DATE_PATTERN]: DATE_PARAM_WORDS,
  [DAY_PATTERN]: 'must be a date such as 2026-01-31',
  [CURRENCY_PATTERN]: 'must be a three-letter ISO 4217 currency code in capitals, such as USD or EUR',
  [EMAIL_PATTERN]: 'must be an e-mail address such as ana@example.com',
  [COUNTRY_PATTERN]: 'must be a two-letter ISO 3166-1 country code, such as DE or US',
  [AD_NETWORK_PATTERN]: 'must be <name>.skadnetwork in lower case, such as abc123.skadnetwork',
  [SOURCE_IDENTIFIER_PATTERN]: 'must be 2 to 4 digits, such as 39',
  [APPLE_APP_ID_PATTERN]:
    'must be the 10-character Team ID (capitals and digits), a dot and the bundle ID, such as ABCDE12345.com.example.game',
  [APPLE_PATH_PATTERN]:
    'must start with / or * (optionally after NOT ), without spaces or #, such as /* or NOT /admin/*',
  [ANDROID_PACKAGE_PATTERN]:
    'must be a Java package name of two or more segments, each starting with a letter, such as com.example.game',
  [SHA256_FINGERPRINT_PATTERN]:
    'must be a SHA-256 fingerprint: 32 hex pairs joined by colons, such as 14:6D:E9:…',
}

/**
 * The words for a value that failed `pattern`; for a URL without its scheme, a suggestion
 * (`did you mean https://example.com?`). Undefined for a pattern not in the contract.
 */
export function patternMessage(pattern: string, value: unknown): string | undefined {
  const message = PATTERN_MESSAGES[pattern]
  if (message === undefined || pattern !== HTTP_URL_PATTERN || typeof value !== 'string') return message
  const bare = value.trim()
  const hostLike = !bare.includes('://') && /^[^\s/]+\.[^\s/]+/.test(bare)
  return hostLike ? `${message}; did you mean https://${bare}?` : message
}

type Options = { minLength?: number; maxLength?: number; description?: string; examples?: string[] }
const note = (o: Options, what: string) => ({
  ...o,
  description: o.description ? `${o.description}. ${what}` : what,
})

/** A title or tag: one line, no control, bidirectional or zero-width characters. */
export function PlainText(o: Options = {}): TString {
  return Type.String({
    ...note(o, 'No control, bidirectional-override, zero-width or other invisible characters'),
    pattern: PLAIN_TEXT_PATTERN,
  })
}

/** A name: like PlainText, with at least one visible character. */
export function VisibleText(o: Options = {}): TString {
  return Type.String({
    ...note(
      o,
      'At least one visible character; no control, bidirectional-override, zero-width or other invisible characters',
    ),
    pattern: VISIBLE_TEXT_PATTERN,
  })
}

/** A description: like PlainText, but tabs and line breaks are allowed. */
export function MultilineText(o: Options = {}): TString {
  return Type.String({
    ...note(
      o,
      'Tabs and line breaks allowed; no other control, bidirectional-override, zero-width or invisible characters',
    ),
    pattern: MULTILINE_TEXT_PATTERN,
  })
}

const VISIBLE = new RegExp(VISIBLE_TEXT_PATTERN)
/**
 * Whether a name has a visible character and no refused one (what VisibleText accepts), for text
 * that arrives outside an HTTP schema (the offline `linkd` subcommands).
 */
export const isVisibleText = (value: string): boolean => VISIBLE.test(value)
