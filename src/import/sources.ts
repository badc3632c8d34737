/**
 * The files other shorteners export (Bitly's links CSV, Shlink's and YOURLS' CSVs, Kutt's links
 * JSON) read into the rows linkd's own import makes. Header names are matched without case,
 * spaces, `_` or `-`; the columns are in CSV_FORMATS (Kutt's fields in kuttRows), and where each
 * format comes from in test/fixtures/import/README.md.
 */
import { unprotectCsvText } from '../contract/csv.js'
import { LINK_LIMITS } from '../contract/limits.js'
import { hostOf } from './linkd.js'
import {
  csvTableRows,
  checkText,
  formulaIn,
  headerKey,
  ImportFileError,
  notUtf8,
  splitTags,
  type BodyRow,
  type ReadOptions,
  type Row,
  type Text,
} from './rows.js'
import { parseExportedTime } from './when.js'

type Field = 'destination' | 'code' | 'shortUrl' | 'customUrl' | 'domain' | 'title' | 'tags' | 'createdAt'

interface CsvFormat {
  product: string
  /** Header names (normalized: lower case, letters and digits only) of each field, first found wins. */
  columns: Partial<Record<Field, string[]>>
  tagSeparators: RegExp
}

export const CSV_FORMATS = {
  bitly: {
    product: 'Bitly',
    columns: {
      destination: ['longurl', 'destination', 'destinationurl', 'originalurl'],
      shortUrl: ['link', 'bitlink', 'shortlink', 'shorturl', 'id'],
      customUrl: ['custombitlinks', 'custombackhalf', 'custombackhalves'],
      title: ['title'],
      tags: ['tags'],
      createdAt: ['createdat', 'created', 'datecreated', 'creationdate'],
    },
    tagSeparators: /[,;|]/,
  },
  shlink: {
    product: 'Shlink',
    columns: {
      destination: ['longurl'],
      code: ['shortcode'],
      shortUrl: ['shorturl'],
      domain: ['domain'],
      title: ['title'],
      tags: ['tags'],
      createdAt: ['createdat', 'datecreated'],
    },
    tagSeparators: /\|/,
  },
  yourls: {
    product: 'YOURLS',
    columns: {
      destination: ['url', 'target', 'longurl'],
      code: ['keyword', 'source'],
      shortUrl: ['shorturl'],
      title: ['title'],
      createdAt: ['timestamp', 'date', 'createdat'],
    },
    tagSeparators: /[;|]/,
  },
} satisfies Record<string, CsvFormat>

/** Records of another product's CSV export (`format` says which columns mean what). */
export async function* foreignCsvRows(
  text: Text,
  format: CsvFormat,
  opts: ReadOptions = {},
): AsyncGenerator<Row> {
  yield* csvTableRows(text, (r) => {
    checkText(r.fields.join(''))
    const names = r.fields.map(headerKey)
    const columns = new Map<Field, number>()
    for (const [field, aliases] of Object.entries(format.columns) as [Field, string[]][]) {
      const i = aliases.map((a) => names.indexOf(a)).find((n) => n >= 0)
      if (i !== undefined) columns.set(field, i)
    }
    if (!columns.has('destination'))
      throw new ImportFileError(
        `line ${r.line}: this is not ${format.product}'s export: the header has no destination column (one of ${(format.columns.destination ?? []).join(', ')}); it names ${r.fields.join(', ') || 'nothing'}`,
      )
    opts.onHeader?.(r.fields)
    const header = (f: Field) => {
      const i = columns.get(f)
      return i === undefined ? undefined : r.fields[i]?.trim()
    }
    return (line, fields) => foreignBody(line, fields, columns, header, format, opts)
  })
}

function foreignBody(
  line: number,
  fields: string[],
  columns: Map<Field, number>,
  header: (f: Field) => string | undefined,
  format: CsvFormat,
  opts: ReadOptions,
): Row {
  const raw = (f: Field) => {
    const i = columns.get(f)
    return i === undefined ? '' : (fields[i] ?? '')
  }
  const cell = (f: Field) => unprotectCsvText(raw(f)).trim()
  const encoding = notUtf8(fields)
  if (encoding) return { line, error: 'ParseError', message: encoding }
  const formula = formulaIn('title', raw('title')) ?? formulaIn('tags', raw('tags'))
  if (formula) return { line, error: 'ValidationError', message: formula }
  // Bitly: a custom back-half (the first, when several) is the link people use.
  const custom = cell('customUrl')
    .split(/[\s,|]+/)
    .find((u) => u.length > 0)
  const row = linkRow(
    line,
    {
      destination: cell('destination'),
      code: cell('code'),
      shortUrl: custom ?? cell('shortUrl'),
      domain: cell('domain'),
      title: cell('title'),
      tags: splitTags(cell('tags'), format.tagSeparators),
      createdAt: cell('createdAt'),
    },
    opts,
  )
  return withColumns(row, {
    destinationUrl: header('destination'),
    customSlug: header(custom ? 'customUrl' : cell('code') ? 'code' : 'shortUrl'),
    title: header('title'),
    tags: header('tags'),
    createdAt: header('createdAt'),
  })
}

/** `row` with the names its file gives the body's fields (those it names otherwise). */
function withColumns(row: Row, names: Record<string, string | undefined>): Row {
  const columns = Object.fromEntries(
    Object.entries(names).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== e[0]),
  )
  return Object.keys(columns).length > 0 ? { ...row, columns } : row
}

interface Found {
  destination: string
  code?: string
  shortUrl?: string
  domain?: string
  title?: string
  tags?: string[]
  createdAt?: string
  expiresAt?: string
}

/** A row from what a record says: its code from the code column, else the short URL's path. */
function linkRow(line: number, found: Found, opts: ReadOptions): Row {
  if (!found.destination) return { line, error: 'ValidationError', message: 'destinationUrl: is empty' }
  const body: Record<string, unknown> = { destinationUrl: found.destination }
  if (found.title) body.title = importedTitle(found.title)
  if (found.tags?.length) body.tags = found.tags
  if (found.expiresAt) body.expiresAt = found.expiresAt
  const code = (found.code || (found.shortUrl ? codeOf(found.shortUrl) : '')).replace(/^\/+|\/+$/g, '')
  if (code && opts.generateCodes !== true) body.customSlug = code
  const row: BodyRow = { line, body }
  const host = found.domain ? hostOf(found.domain) : found.shortUrl ? hostOf(found.shortUrl) : undefined
  if (host) row.host = host
  if (found.createdAt) {
    const at = parseExportedTime(found.createdAt)
    if (!at)
      return {
        line,
        error: 'ValidationError',
        message: `createdAt: "${found.createdAt}" is not a date (expected ISO 8601 or YYYY-MM-DD HH:MM:SS)`,
      }
    row.createdAt = at
  }
  return row
}

/**
 * Another product's title (often the page's, fetched) as a link title: line breaks and tabs
 * become spaces and a title over 255 characters is cut with `…`, so that the link is imported.
 */
function importedTitle(title: string): string {
  const t = [...title.replace(/\s+/g, ' ').trim()]
  return t.length <= LINK_LIMITS.titleMax
    ? t.join('')
    : `${t
        .slice(0, LINK_LIMITS.titleMax - 1)
        .join('')
        .trimEnd()}…`
}

/** The path of a short URL without its slashes (`https://bit.ly/abc` → `abc`). */
function codeOf(shortUrl: string): string {
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(shortUrl) ? shortUrl : `https://${shortUrl}`)
    return decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, '')
  } catch {
    return ''
  }
}

/** One Kutt link object (with a `target`) a line, blank lines skipped; else undefined. */
function jsonObjectLines(text: string): unknown[] | undefined {
  const out: unknown[] = []
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue
    try {
      const v: unknown = JSON.parse(line)
      if (!v || typeof v !== 'object' || Array.isArray(v) || !('target' in v)) return undefined
      out.push(v)
    } catch {
      return undefined
    }
  }
  return out.length > 0 ? out : undefined
}

/**
 * Kutt's links JSON: the API's page `{data: [...]}` or an array of links; also one link object a
 * line (what --failed-out writes of it). The whole text is read first (JSON is not read record
 * by record); a row's line is its link's position in the list.
 */
export async function* kuttRows(text: Text, opts: ReadOptions = {}): AsyncGenerator<Row> {
  let all = ''
  for await (const chunk of text) all += String(chunk)
  checkText(all)
  const body = all.charCodeAt(0) === 0xfeff ? all.slice(1) : all
  let value: unknown
  let parseError: Error | undefined
  try {
    value = JSON.parse(body)
  } catch (err) {
    parseError = err as Error
  }
  const list = Array.isArray(value)
    ? value
    : value && typeof value === 'object' && Array.isArray((value as { data?: unknown }).data)
      ? (value as { data: unknown[] }).data
      : jsonObjectLines(body)
  if (!list && parseError) throw new ImportFileError(`this is not Kutt's links JSON: ${parseError.message}`)
  if (!list)
    throw new ImportFileError(
      `this is not Kutt's links JSON: expected an array of links or {"data": [links]} (GET /api/v2/links)`,
    )
  for (const [i, item] of list.entries()) {
    const line = i + 1
    if (!item || typeof item !== 'object' || Array.isArray(item)) {
      yield {
        line,
        error: 'ParseError',
        message: 'expected a link object',
        source: { text: JSON.stringify(item) },
      }
      continue
    }
    const object = item as Record<string, unknown>
    const str = (k: string) => (typeof object[k] === 'string' ? (object[k] as string).trim() : '')
    const source = { object }
    const encoding = notUtf8(Object.values(object).filter((v): v is string => typeof v === 'string'))
    if (encoding) {
      yield { line, error: 'ParseError', message: encoding, source }
      continue
    }
    if (object.password === true) {
      yield {
        line,
        error: 'ValidationError',
        message:
          'password: the link is password-protected in Kutt, and its export never carries the password; set "password" to the one it should have (or to false to import it unprotected)',
        source,
      }
      continue
    }
    // An expiry that has passed fails the row (a create takes future expiries only).
    const expires = str('expire_in')
    const expiresAt = expires ? (parseExportedTime(expires) ?? expires) : undefined
    const row = linkRow(
      line,
      {
        destination: str('target'),
        code: str('address'),
        shortUrl: str('link'),
        domain: str('domain'),
        title: str('description'),
        createdAt: str('created_at'),
        ...(expiresAt ? { expiresAt } : {}),
      },
      opts,
    )
    if ('body' in row && typeof object.password === 'string' && object.password)
      row.body.password = object.password
    const named = withColumns(row, {
      destinationUrl: 'target',
      customSlug: str('address') ? 'address' : 'link',
      title: 'description',
      createdAt: 'created_at',
      expiresAt: 'expire_in',
    })
    yield { ...named, source }
  }
}
