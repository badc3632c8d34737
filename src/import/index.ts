/**
 * Import files, read the same way by linkd (POST /api/use/links/import) and linkctl (links
 * import): one reader per source product, each making the rows of rows.ts.
 */
import { StringDecoder } from 'node:string_decoder'
import { csvRows, jsonArrayRows, jsonlRows } from './linkd.js'
import { checkText, type ImportSource, type ReadOptions, type Row, type Text } from './rows.js'
import { CSV_FORMATS, foreignCsvRows, kuttRows } from './sources.js'

export * from './rows.js'
export {
  BASE_CSV_COLUMNS,
  CSV_COLUMNS,
  IMPORT_ONLY_CSV_COLUMNS,
  OPTION_CSV_COLUMNS,
  PLACEMENT_CSV_COLUMNS,
  csvRows,
  hostOf,
  jsonlRows,
} from './linkd.js'

/** The file's format as written back by `--failed-out`: CSV, or JSON lines (linkd's and Kutt's JSON). */
export type FileFormat = 'csv' | 'jsonl'

/**
 * Reads until the first non-blank character and picks the format: `{` is JSON lines, `[` a JSON
 * array (`links export --format json`; written back as JSON lines), else CSV.
 */
export async function detect(text: Text): Promise<{ format: FileFormat; array: boolean; text: Text }> {
  const it = text[Symbol.asyncIterator]()
  const seen: string[] = []
  let format: FileFormat = 'csv'
  let array = false
  for (;;) {
    const next = await it.next()
    if (next.done) break
    const s = String(next.value)
    seen.push(s)
    const c = /[^\s\ufeff]/.exec(s)?.[0]
    if (c !== undefined) {
      array = c === '['
      format = c === '{' || array ? 'jsonl' : 'csv'
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
  return { format, array, text: replay() }
}

/**
 * The records of `input` as `source` exports them (linkd: CSV, JSON lines or a JSON array,
 * `format` or detected). Throws ImportFileError for a file that cannot be read at all.
 */
export async function readRows(
  source: ImportSource,
  input: Text,
  format: FileFormat | undefined,
  opts: ReadOptions,
): Promise<{ format: FileFormat; rows: AsyncGenerator<Row> }> {
  const text = decoded(input)
  if (source === 'kutt') return { format: 'jsonl', rows: kuttRows(text, opts) }
  if (source !== 'linkd') return { format: 'csv', rows: foreignCsvRows(text, CSV_FORMATS[source], opts) }
  const detected = await detect(text)
  if (detected.array && format !== 'csv') return { format: 'jsonl', rows: jsonArrayRows(detected.text, opts) }
  const read = (format ?? detected.format) === 'jsonl' ? jsonlRows : csvRows
  return { format: format ?? detected.format, rows: read(detected.text, opts) }
}

/** Text of the input, UTF-8 characters split across chunks joined; UTF-16 refused at once. */
async function* decoded(text: Text): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8')
  let first = true
  for await (const chunk of text) {
    const s = typeof chunk === 'string' ? chunk : decoder.write(chunk)
    if (first && s.length > 0) {
      first = false
      checkText(s.slice(0, 4096))
    }
    yield s
  }
  const end = decoder.end()
  if (end) yield end
}
