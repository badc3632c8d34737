/**
 * The input of `links import`: the file or stdin as text, its format (CSV or JSON lines), and
 * its records as create bodies or row errors, each with the record as it was read (`source`) so
 * that a failed row can be written back in the input's own format (`--failed-out`).
 */
import { open } from 'node:fs/promises'
import { StringDecoder } from 'node:string_decoder'
import type { Ctx } from '../../../session/context.js'
import { CliError, EXIT, UsageError } from '../../../session/exit-codes.js'
import { parseExpiry } from '../../parse.js'
import { CsvParser, type CsvRecord } from '../../csv.js'
import { unprotectCsvText } from '../../../contract/csv.js'

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
export const CSV_COLUMNS = [...BASE_CSV_COLUMNS, ...OPTION_CSV_COLUMNS, ...IMPORT_ONLY_CSV_COLUMNS] as const

/**
 * A row exported from a protected link has passwordProtected true and no password: importing it
 * without one would publish the link unprotected, so the row fails and says how to go on.
 */
const NEEDS_PASSWORD =
  'passwordProtected: the link was protected, but exports never carry the password; add a password column (or field) with one, or set passwordProtected to false'

/** A record as read: CSV fields, a JSON object, or the text of a line that is neither. */
export type RowSource = { fields: string[] } | { object: Record<string, unknown> } | { text: string }

export interface RowError {
  line: number
  error: string
  message: string
}
/** One input record: a create body to send, or why it cannot be sent. */
export type Row =
  { line: number; body: Record<string, unknown>; source?: RowSource } | (RowError & { source?: RowSource })

export type Text = AsyncIterable<string | Buffer>

export interface ReadOptions {
  generateCodes?: boolean
  /** CSV: called with the header's fields once they are read. */
  onHeader?: (fields: string[]) => void
}

/** Records of a CSV text: the header (line 1 or the first non-blank line) names the columns. */
export async function* csvRows(text: Text, opts: ReadOptions = {}): AsyncGenerator<Row> {
  const parser = new CsvParser()
  let columns: Map<string, number> | undefined
  let width = 0
  const handle = function* (records: CsvRecord[]): Generator<Row> {
    for (const r of records) {
      if (!columns) {
        if ('error' in r)
          throw new CliError(`line ${r.line}: cannot read the CSV header: ${r.error}`, EXIT.error)
        columns = new Map()
        r.fields.forEach((name, i) => {
          const known = CSV_COLUMNS.find((c) => c.toLowerCase() === name.trim().toLowerCase())
          if (known && !columns?.has(known)) columns?.set(known, i)
        })
        width = r.fields.length
        if (!columns.has('destinationUrl'))
          throw new CliError(
            `line ${r.line}: the CSV header must name the columns (${BASE_CSV_COLUMNS.join(',')}, optionally ${OPTION_CSV_COLUMNS.join(',')}); destinationUrl is missing`,
            EXIT.error,
          )
        opts.onHeader?.(r.fields)
        continue
      }
      if ('error' in r) yield { line: r.line, error: 'ParseError', message: r.error }
      else if (r.fields.length !== width)
        yield {
          line: r.line,
          error: 'ParseError',
          message: `expected ${width} fields like the header, found ${r.fields.length}`,
          source: { fields: r.fields },
        }
      else
        yield {
          ...csvBody(r.line, r.fields, columns, opts.generateCodes === true),
          source: { fields: r.fields },
        }
    }
  }
  for await (const chunk of text) yield* handle(parser.push(String(chunk)))
  yield* handle(parser.end())
}

function csvBody(line: number, fields: string[], columns: Map<string, number>, generateCodes: boolean): Row {
  const cell = (name: (typeof CSV_COLUMNS)[number]) => {
    const i = columns.get(name)
    // An export protected text that a spreadsheet would run as a formula (`'=…`): undone here.
    return i === undefined ? '' : unprotectCsvText(fields[i] ?? '').trim()
  }
  const destinationUrl = cell('destinationUrl')
  if (!destinationUrl) return { line, error: 'ValidationError', message: 'destinationUrl: is empty' }
  const body: Record<string, unknown> = { destinationUrl }
  const title = cell('title')
  if (title) body.title = title
  const slug = cell('customSlug')
  if (slug && !generateCodes) body.customSlug = slug
  const tags = cell('tags')
  if (tags)
    body.tags = [
      ...new Set(
        tags
          .split(/[;|]/)
          .map((t) => t.trim())
          .filter((t) => t.length > 0),
      ),
    ]
  const expires = cell('expiresAt')
  if (expires) {
    try {
      const at = parseExpiry(expires)
      if (at) body.expiresAt = at
    } catch (err) {
      return { line, error: 'ValidationError', message: `expiresAt: ${(err as Error).message}` }
    }
  }
  const expiredUrl = cell('expiredUrl')
  if (expiredUrl) body.expiredUrl = expiredUrl
  const maxClicks = cell('maxClicks')
  if (maxClicks) {
    if (!/^\d+$/.test(maxClicks))
      return { line, error: 'ValidationError', message: 'maxClicks: expected a whole number' }
    body.maxClicks = Number(maxClicks)
  }
  const startsAt = cell('startsAt')
  if (startsAt) {
    try {
      const at = parseExpiry(startsAt)
      if (at) body.startsAt = at
    } catch (err) {
      return { line, error: 'ValidationError', message: `startsAt: ${(err as Error).message}` }
    }
  }
  const forward = cell('forwardQuery').toLowerCase()
  if (forward) {
    if (forward !== 'true' && forward !== 'false')
      return { line, error: 'ValidationError', message: 'forwardQuery: expected true or false' }
    body.forwardQuery = forward === 'true'
  }
  const rules = cell('rules')
  if (rules) {
    try {
      body.rules = JSON.parse(rules) as unknown
    } catch (err) {
      return { line, error: 'ValidationError', message: `rules: invalid JSON: ${(err as Error).message}` }
    }
  }
  for (const name of ['og', 'variants'] as const) {
    const json = cell(name)
    if (!json) continue
    try {
      body[name] = JSON.parse(json) as unknown
    } catch (err) {
      return { line, error: 'ValidationError', message: `${name}: invalid JSON: ${(err as Error).message}` }
    }
  }
  const i = columns.get('password')
  // The password cell as written (not trimmed: spaces may be part of it).
  const password = i === undefined ? '' : (fields[i] ?? '')
  if (password) body.password = password
  else if (cell('passwordProtected').toLowerCase() === 'true')
    return { line, error: 'ValidationError', message: NEEDS_PASSWORD }
  return { line, body }
}

/**
 * Fields of a link object that a create body does not take (export and `get --json` output),
 * and the `error` a `--failed-out` file adds to each row.
 */
const NOT_CREATE_FIELDS = ['id', 'shortUrl', 'clicks', 'status', 'createdAt', 'updatedAt', 'error']

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
    if (!value || typeof value !== 'object' || Array.isArray(value))
      return { line, error: 'ParseError', message: 'expected a JSON object', source: { text: s } }
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
    return { line, body, source: { object } }
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

/** Reads until the first non-blank character and picks the format: `{` is JSON lines, else CSV. */
export async function detect(text: Text): Promise<{ format: 'csv' | 'jsonl'; text: Text }> {
  const it = text[Symbol.asyncIterator]()
  const seen: string[] = []
  let format: 'csv' | 'jsonl' = 'csv'
  for (;;) {
    const next = await it.next()
    if (next.done) break
    const s = String(next.value)
    seen.push(s)
    const c = /[^\s\ufeff]/.exec(s)?.[0]
    if (c !== undefined) {
      format = c === '{' ? 'jsonl' : 'csv'
      break
    }
  }
  async function* replay(): AsyncGenerator<string> {
    yield* seen
    for (;;) {
      const next = await it.next()
      if (next.done) return
      yield String(next.value)
    }
  }
  return { format, text: replay() }
}

/** The records of `text` in `format` (detected when not given). */
export async function readRows(
  input: Text,
  format: 'csv' | 'jsonl' | undefined,
  opts: ReadOptions,
): Promise<{ format: 'csv' | 'jsonl'; rows: AsyncGenerator<Row> }> {
  const text = decoded(input)
  const detected = format ? { format, text } : await detect(text)
  const read = detected.format === 'jsonl' ? jsonlRows : csvRows
  return { format: detected.format, rows: read(detected.text, opts) }
}

/** The input file, or stdin for `-` or no file (not a terminal). */
export async function openInput(file: string | undefined, ctx: Ctx): Promise<Text> {
  if (file === undefined || file === '-') {
    if (file === undefined && ctx.stdin.isTTY === true)
      throw new UsageError('no input: pass a file, or pipe the rows in (linkctl links import - < links.csv)')
    return ctx.stdin as AsyncIterable<Buffer>
  }
  try {
    const handle = await open(file)
    return handle.createReadStream({ encoding: 'utf8' })
  } catch (err) {
    throw new CliError(`cannot read ${file}: ${(err as Error).message}`, EXIT.error)
  }
}

/**
 * How many records a file holds, for the progress bar's total (a first quick pass, without
 * sending anything); undefined for stdin or a file that cannot be read twice.
 */
export async function countRows(
  file: string | undefined,
  format: 'csv' | 'jsonl' | undefined,
): Promise<number | undefined> {
  if (file === undefined || file === '-') return undefined
  try {
    const handle = await open(file)
    const { rows } = await readRows(handle.createReadStream({ encoding: 'utf8' }), format, {})
    let n = 0
    for await (const _ of rows) n++
    return n
  } catch {
    return undefined
  }
}

/** Text of the input, UTF-8 characters split across chunks joined. */
async function* decoded(text: Text): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8')
  for await (const chunk of text) yield typeof chunk === 'string' ? chunk : decoder.write(chunk)
  const end = decoder.end()
  if (end) yield end
}
