/**
 * What every import file becomes, whatever product wrote it: records, each a create body (plus
 * the short URL's host and the creation date when the file has them) or why it cannot be one,
 * with the input line it came from and the record as it was read (`source`), so that a failed
 * row can be written back in the input's own format.
 */
import type { IMPORT_SOURCES } from '../contract/limits.js'
import { CsvParser, type CsvRecord } from '../contract/csv.js'

export type ImportSource = (typeof IMPORT_SOURCES)[number]

/** A record as read: CSV fields, a JSON object, or the text of a line that is neither. */
export type RowSource = { fields: string[] } | { object: Record<string, unknown> } | { text: string }

export interface RowError {
  line: number
  error: string
  message: string
  /** See BodyRow.columns. */
  columns?: Readonly<Record<string, string>> | undefined
}

export interface BodyRow {
  line: number
  body: Record<string, unknown>
  source?: RowSource
  /** The host of the row's short URL in the file (its custom domain, when it is one of yours). */
  host?: string
  /** When the source product created the link (ISO 8601 UTC). */
  createdAt?: string
  /** The link was disabled (linkd's status `inactive`): it is imported disabled. */
  inactive?: boolean
  /**
   * Body fields that another product's file names otherwise, and its name for each (customSlug →
   * custom_bitlinks): the CLI says the row's errors in the file's terms (src/format/terms.ts).
   */
  columns?: Readonly<Record<string, string>>
}

/** One input record: a create body to send, or why it cannot be sent. */
export type Row = BodyRow | (RowError & { source?: RowSource })

export type Text = AsyncIterable<string | Buffer>

export interface ReadOptions {
  generateCodes?: boolean
  /** CSV: called with the header's fields once they are read. */
  onHeader?: (fields: string[]) => void
  /** Now (ms), for expiries written as durations (`30d`). */
  now?: number
}

/** A file that cannot be read at all (no usable header, not UTF-8 text, not the JSON expected). */
export class ImportFileError extends Error {
  override name = 'ImportFileError'
}

/**
 * A cell a spreadsheet would run rather than show (`=HYPERLINK("…")`, `+SUM(…)`): its text is
 * not what the product showed, so the row fails instead of importing the formula as a title.
 * linkd's own exports protect such text with a leading `'`, which is not a formula.
 */
export function formulaIn(field: string, cell: string): RowError['message'] | undefined {
  return /^\s*(=|[+\-@]\s*[A-Za-z_][\w.]*\s*\()/.test(cell)
    ? `${field}: is a spreadsheet formula (${cell.length > 40 ? `${cell.slice(0, 40)}…` : cell}); put the text itself, or start it with ' to keep it as written`
    : undefined
}

/** A header name as the importers match it: case, spaces, `_`, `-` and other marks ignored. */
export const headerKey = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '')

/** U+FFFD stands where the input had bytes that are not UTF-8 (the decoder's replacement). */
export function notUtf8(values: readonly string[]): string | undefined {
  return values.some((v) => v.includes('\ufffd'))
    ? 'the row is not UTF-8 text (the file looks like Latin-1 or Windows-1252): save the file as UTF-8 and import it again'
    : undefined
}

/** A NUL in the text: UTF-16 (Excel's "Unicode text") read as UTF-8, or a binary file. */
export function checkText(text: string): void {
  if (text.includes('\u0000'))
    throw new ImportFileError(
      'the file is not UTF-8 text (it holds NUL characters: UTF-16 or binary); save it as UTF-8 (CSV UTF-8) and import it again',
    )
}

/** Tags from one cell, split on `separators`, trimmed, without empties or repeats. */
export function splitTags(cell: string, separators: RegExp): string[] {
  return [
    ...new Set(
      cell
        .split(separators)
        .map((t) => t.trim())
        .filter((t) => t.length > 0),
    ),
  ]
}

/**
 * The rows of a CSV text: `header` reads the header record (the first) and returns how to read a
 * body row of its fields; a row whose field count differs from the header's, or that does not
 * parse, is a ParseError row.
 */
export async function* csvTableRows(
  text: Text,
  header: (r: { line: number; fields: string[] }) => (line: number, fields: string[]) => Row,
): AsyncGenerator<Row> {
  const parser = new CsvParser()
  let body: ((line: number, fields: string[]) => Row) | undefined
  let width = 0
  const handle = function* (records: CsvRecord[]): Generator<Row> {
    for (const r of records) {
      if (!body) {
        if ('error' in r) throw new ImportFileError(`line ${r.line}: cannot read the CSV header: ${r.error}`)
        body = header(r)
        width = r.fields.length
        continue
      }
      if ('error' in r)
        yield { line: r.line, error: 'ParseError', message: r.error, source: { text: r.text } }
      else if (r.fields.length !== width)
        yield {
          line: r.line,
          error: 'ParseError',
          message: `expected ${width} fields like the header, found ${r.fields.length}`,
          source: { fields: r.fields },
        }
      else yield { ...body(r.line, r.fields), source: { fields: r.fields } }
    }
  }
  for await (const chunk of text) yield* handle(parser.push(String(chunk)))
  yield* handle(parser.end())
}
