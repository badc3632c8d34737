/**
 * linkd's own import formats: CSV (the header names the columns; `links export` writes one) and
 * JSON lines (one create body, or link object, per line).
 */
import { unprotectCsvText } from '../contract/csv.js'
import { parseExpiry } from './when.js'
import {
  csvTableRows,
  formulaIn,
  headerKey,
  ImportFileError,
  notUtf8,
  splitTags,
  type ReadOptions,
  type Row,
  type Text,
} from './rows.js'

/** The columns an import reads; the link options come last (an export writes them after createdAt). */
export const BASE_CSV_COLUMNS = ['destinationUrl', 'title', 'customSlug', 'tags', 'expiresAt'] as const
/**
 * Link options: rules, og and variants as JSON, forwardQuery and passwordProtected true|false;
 * empty cells are the defaults. An export writes passwordProtected (never a password or its hash).
 */
export const OPTION_CSV_COLUMNS = [
  'expiredUrl',
  'maxClicks',
  'startsAt',
  'forwardQuery',
  'rules',
  'passwordProtected',
  'og',
  'variants',
] as const
/** Read by an import only: the plain password a row's link gets (the file is the user's own). */
export const IMPORT_ONLY_CSV_COLUMNS = ['password'] as const
/**
 * Written by an export, read by POST /api/use/links/import: the short URL (its host places the
 * link on that custom domain of yours) and the creation date the link keeps.
 */
export const PLACEMENT_CSV_COLUMNS = ['shortUrl', 'createdAt', 'status'] as const
export const CSV_COLUMNS = [...BASE_CSV_COLUMNS, ...OPTION_CSV_COLUMNS, ...IMPORT_ONLY_CSV_COLUMNS] as const
const READ_COLUMNS = [...CSV_COLUMNS, ...PLACEMENT_CSV_COLUMNS] as const

/**
 * A row exported from a protected link has passwordProtected true and no password: importing it
 * without one would publish the link unprotected, so the row fails and says how to go on.
 */
export const NEEDS_PASSWORD =
  'passwordProtected: the link was protected, but exports never carry the password; add a password column (or field) with one, or set passwordProtected to false'

/** Records of a CSV text: the header (line 1 or the first non-blank line) names the columns. */
export async function* csvRows(text: Text, opts: ReadOptions = {}): AsyncGenerator<Row> {
  yield* csvTableRows(text, (r) => {
    const columns = new Map<string, number>()
    r.fields.forEach((name, i) => {
      const known = READ_COLUMNS.find((c) => headerKey(c) === headerKey(name))
      if (known && !columns.has(known)) columns.set(known, i)
    })
    if (!columns.has('destinationUrl'))
      throw new ImportFileError(
        `line ${r.line}: the CSV header must name the columns (${BASE_CSV_COLUMNS.join(',')}, optionally ${OPTION_CSV_COLUMNS.join(',')}); destinationUrl is missing`,
      )
    opts.onHeader?.(r.fields)
    return (line, fields) => csvBody(line, fields, columns, opts)
  })
}

function csvBody(line: number, fields: string[], columns: Map<string, number>, opts: ReadOptions): Row {
  const invalid = (message: string): Row => ({ line, error: 'ValidationError', message })
  const raw = (name: (typeof READ_COLUMNS)[number]) => {
    const i = columns.get(name)
    return i === undefined ? '' : (fields[i] ?? '')
  }
  // An export protected text that a spreadsheet would run as a formula (`'=…`): undone here.
  const cell = (name: (typeof READ_COLUMNS)[number]) => unprotectCsvText(raw(name)).trim()
  const encoding = notUtf8(fields)
  if (encoding) return { line, error: 'ParseError', message: encoding }
  const destinationUrl = cell('destinationUrl')
  if (!destinationUrl) return invalid('destinationUrl: is empty')
  const formula = formulaIn('title', raw('title')) ?? formulaIn('tags', raw('tags'))
  if (formula) return invalid(formula)
  const body: Record<string, unknown> = { destinationUrl }
  const title = cell('title')
  if (title) body.title = title
  const slug = cell('customSlug')
  if (slug && opts.generateCodes !== true) body.customSlug = slug
  const tags = cell('tags')
  if (tags) body.tags = splitTags(tags, /[;|]/)
  const now = opts.now ?? Date.now()
  for (const name of ['expiresAt', 'startsAt'] as const) {
    const value = cell(name)
    if (!value) continue
    try {
      const at = parseExpiry(value, now)
      if (at) body[name] = at
    } catch (err) {
      return invalid(`${name}: ${(err as Error).message}`)
    }
  }
  const expiredUrl = cell('expiredUrl')
  if (expiredUrl) body.expiredUrl = expiredUrl
  const maxClicks = cell('maxClicks')
  if (maxClicks) {
    if (!/^\d+$/.test(maxClicks)) return invalid('maxClicks: expected a whole number')
    body.maxClicks = Number(maxClicks)
  }
  const forward = cell('forwardQuery').toLowerCase()
  if (forward) {
    if (forward !== 'true' && forward !== 'false') return invalid('forwardQuery: expected true or false')
    body.forwardQuery = forward === 'true'
  }
  for (const name of ['rules', 'og', 'variants'] as const) {
    const value = cell(name)
    if (!value) continue
    try {
      body[name] = JSON.parse(value) as unknown
    } catch (err) {
      return invalid(`${name}: invalid JSON: ${(err as Error).message}`)
    }
  }
  // The password cell as written (not trimmed: spaces may be part of it).
  const password = raw('password')
  if (password) body.password = password
  else if (cell('passwordProtected').toLowerCase() === 'true') return invalid(NEEDS_PASSWORD)
  return { line, body, ...placement(cell('shortUrl'), cell('createdAt'), cell('status')) }
}

/** The host of a short URL, a creation date (when given and readable) and a disabled link's status. */
function placement(
  shortUrl: unknown,
  createdAt: unknown,
  status: unknown,
): { host?: string; createdAt?: string; inactive?: boolean } {
  const out: { host?: string; createdAt?: string; inactive?: boolean } = {}
  if (status === 'inactive') out.inactive = true
  if (typeof shortUrl === 'string' && shortUrl) {
    const host = hostOf(shortUrl)
    if (host) out.host = host
  }
  if (typeof createdAt === 'string' && createdAt) {
    const t = Date.parse(createdAt)
    if (Number.isFinite(t)) out.createdAt = new Date(t).toISOString()
  }
  return out
}

/** The lower-case host of a URL (a scheme is optional: `bit.ly/abc`), or undefined. */
export function hostOf(url: string): string | undefined {
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `https://${url}`).hostname.toLowerCase()
  } catch {
    return undefined
  }
}

/**
 * Fields of a link object that a create body does not take (export and `get --json` output:
 * `flagged` is a safety list's finding, made again where the link is imported), and the `error`
 * a `--failed-out` file adds to each row.
 */
const NOT_CREATE_FIELDS = ['id', 'shortUrl', 'clicks', 'status', 'createdAt', 'updatedAt', 'flagged', 'error']

/** Records of a JSON lines text: one object per line; blank lines are skipped. */
export async function* jsonlRows(text: Text, opts: ReadOptions = {}): AsyncGenerator<Row> {
  let rest = ''
  let line = 0
  let first = true
  const parse = (raw: string): Row | undefined => {
    line++
    let s = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    if (first) {
      first = false
      if (s.charCodeAt(0) === 0xfeff) s = s.slice(1)
    }
    if (s.trim() === '') return undefined
    const encoding = notUtf8([s])
    if (encoding) return { line, error: 'ParseError', message: encoding, source: { text: s } }
    let value: unknown
    try {
      value = JSON.parse(s)
    } catch (err) {
      return {
        line,
        error: 'ParseError',
        message: `invalid JSON: ${(err as Error).message}`,
        source: { text: s },
      }
    }
    return objectRow(line, value, s, opts)
  }
  for await (const chunk of text) {
    const parts = (rest + String(chunk)).split('\n')
    rest = parts.pop() ?? ''
    for (const p of parts) {
      const row = parse(p)
      if (row) yield row
    }
  }
  const last = parse(rest)
  if (last) yield last
}

/**
 * Records of a JSON array of link objects (what `links export --format json` writes), read
 * whole; a row's line is its position in the array.
 */
export async function* jsonArrayRows(text: Text, opts: ReadOptions = {}): AsyncGenerator<Row> {
  let all = ''
  for await (const chunk of text) all += String(chunk)
  let list: unknown
  try {
    list = JSON.parse(all.charCodeAt(0) === 0xfeff ? all.slice(1) : all)
  } catch (err) {
    throw new ImportFileError(`this is not a JSON array of links: ${(err as Error).message}`)
  }
  if (!Array.isArray(list)) throw new ImportFileError('this is not a JSON array of links')
  for (const [i, value] of list.entries()) {
    const text = JSON.stringify(value) ?? 'null'
    const encoding = notUtf8([text])
    yield encoding
      ? { line: i + 1, error: 'ParseError', message: encoding, source: { text } }
      : objectRow(i + 1, value, text, opts)
  }
}

/** The row of one link object or create body (`text`: how the record was written). */
function objectRow(line: number, value: unknown, text: string, opts: ReadOptions): Row {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    return { line, error: 'ParseError', message: 'expected a JSON object', source: { text } }
  const object = value as Record<string, unknown>
  const body: Record<string, unknown> = { ...object }
  for (const k of NOT_CREATE_FIELDS) delete body[k]
  if (typeof body.shortCode === 'string' && body.customSlug === undefined) body.customSlug = body.shortCode
  delete body.shortCode
  if (body.customDomainId === null) delete body.customDomainId
  if (opts.generateCodes) delete body.customSlug
  const wasProtected = body.passwordProtected === true
  delete body.passwordProtected
  if (body.og === null) delete body.og
  // An exported link without variants shows []: a create body leaves them out.
  if (Array.isArray(body.variants) && body.variants.length === 0) delete body.variants
  if (wasProtected && body.password === undefined)
    return { line, error: 'ValidationError', message: NEEDS_PASSWORD, source: { object } }
  return {
    line,
    body,
    source: { object },
    ...placement(object.shortUrl, object.createdAt, object.status),
  }
}
