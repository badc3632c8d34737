/**
 * The file formats of raw exports (gaming events, clicks; downloads and scheduled exports alike):
 * NDJSON, CSV and Parquet, encoded from pages of rows as they come, so that memory holds one page
 * (Parquet: one row group) whatever the number of rows. Timestamps are ISO 8601 UTC text in NDJSON
 * and CSV, and Parquet TIMESTAMP (ms, UTC) columns; CSV text is formula-safe (src/contract/csv.ts).
 */
import { Readable } from 'node:stream'
import type { FastifyReply } from 'fastify'
import Type from 'typebox'
import { csvRow } from '../src/contract/csv.js'
import type { RawFormat } from '../src/contract/raw-export.js'

export type RawCell = string | number | boolean | null

/** A raw export's row: the values of its columns in the columns' order (a timestamp as Unix ms). */
export type RawRow = RawCell[]

export interface RawColumn {
  name: string
  kind: 'string' | 'timestamp' | 'boolean'
  nullable: boolean
}

/** A dataset's columns in the contract's order: nullable text unless `shape` says otherwise. */
export function rawColumns<N extends string>(
  names: readonly N[],
  shape: Partial<Record<N, Partial<Omit<RawColumn, 'name'>>>>,
): readonly RawColumn[] {
  return names.map((name) => ({ name, kind: 'string', nullable: true, ...shape[name] }))
}

/** A raw export ready to encode: its columns, and its rows page by page. */
export interface RawRows {
  columns: readonly RawColumn[]
  pages: AsyncIterable<RawRow[]>
}

export const RAW_CONTENT_TYPES: Readonly<Record<RawFormat, string>> = {
  ndjson: 'application/x-ndjson; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  parquet: 'application/vnd.apache.parquet',
}

/** Text chunks are sent once they reach this size. */
const CHUNK = 64 * 1024
/** Rows per Parquet row group: a group is encoded and sent as soon as it fills. */
export const PARQUET_GROUP_ROWS = 16_384

/** ISO 8601 text of a time, the last one remembered (rows come in time order, often sharing one). */
function isoText(): (ms: RawCell) => string | null {
  let last = NaN
  let text = ''
  return (ms) => {
    if (typeof ms !== 'number') return null
    if (ms !== last) {
      last = ms
      text = new Date(ms).toISOString()
    }
    return text
  }
}

/** The rows encoded in `format`, chunk by chunk (text, or Parquet bytes). */
export function encodeRaw(rows: RawRows, format: RawFormat): AsyncGenerator<string | Uint8Array> {
  if (format === 'parquet') return parquet(rows)
  return text(rows, format)
}

async function* text({ columns, pages }: RawRows, format: 'ndjson' | 'csv'): AsyncGenerator<string> {
  const names = columns.map((c) => c.name)
  const n = names.length
  const isTime = columns.map((c) => c.kind === 'timestamp')
  const iso = isoText()
  // NDJSON lines are written key by key (no intermediate object per row).
  const keys = columns.map((c, i) => `${i ? ',' : '{'}${JSON.stringify(c.name)}:`)
  const cells: RawCell[] = []
  let chunk = format === 'csv' ? csvRow(names) : ''
  for await (const page of pages) {
    for (const row of page) {
      if (format === 'csv') {
        for (let i = 0; i < n; i++) {
          const v = row[i]!
          cells[i] = isTime[i] ? iso(v) : v
        }
        chunk += csvRow(cells)
      } else {
        let line = ''
        for (let i = 0; i < n; i++) {
          const v = row[i]!
          line += keys[i]! + (v === null ? 'null' : isTime[i] ? `"${iso(v)}"` : JSON.stringify(v))
        }
        chunk += `${line}}\n`
      }
      // Chunks of about CHUNK: memory holds one page of rows and one chunk of text.
      if (chunk.length >= CHUNK) {
        yield chunk
        chunk = ''
      }
    }
  }
  if (chunk) yield chunk
}

/**
 * Distinct texts of a column remembered per row group (the repeated ones are few); a column with
 * more (ids) is not looked up again in that group: each of its values is new bytes anyway.
 */
const DISTINCT_KEPT = 1024

const PARQUET_TYPES = { string: 'STRING', timestamp: 'TIMESTAMP', boolean: 'BOOLEAN' } as const

/**
 * Parquet written incrementally with hyparquet-writer's ParquetWriter: the header, then each row
 * group as soon as it fills (its bytes taken out of the writer's buffer and yielded), then the
 * footer. A file without rows has no row group.
 */
async function* parquet({ columns, pages }: RawRows): AsyncGenerator<Uint8Array> {
  // Loaded on the first Parquet export only (start-up stays light).
  const { ByteWriter, ParquetWriter, schemaFromColumnData } = await import('hyparquet-writer')
  const writer = new ByteWriter(1 << 20)
  // Min/max statistics on the time column only (readers skip row groups by time); on every
  // column they cost most of the encoding time.
  const spec = columns.map((c) => ({
    name: c.name,
    type: PARQUET_TYPES[c.kind],
    nullable: c.nullable,
    statistics: c.kind === 'timestamp',
  }))
  const schema = schemaFromColumnData({ columnData: spec.map((s) => ({ ...s, data: [] })) })
  const pq = new ParquetWriter({ writer, schema, createdBy: 'linkd' })
  const take = (): Uint8Array => {
    const bytes = writer.getBytes().slice()
    writer.index = 0
    return bytes
  }
  // The row group is kept as columns, text already as UTF-8 bytes: the writer takes bytes as
  // they are (it would encode each string into a buffer of its own), and a value repeated in a
  // column (type, platform, country) is one buffer, found by reference by its dictionary.
  const n = spec.length
  const isText = spec.map((s) => s.type === 'STRING')
  const known = spec.map(() => new Map<string, Uint8Array>())
  let data: Array<Array<RawCell | Uint8Array>> = spec.map(() => [])
  let count = 0
  const flush = async () => {
    const columnData = spec.map((s, i) => ({ ...s, data: data[i]! }))
    await pq.write({ columnData, rowGroupSize: count })
    data = spec.map(() => [])
    for (const m of known) m.clear()
    count = 0
  }
  yield take()
  for await (const page of pages) {
    for (const row of page) {
      for (let i = 0; i < n; i++) {
        const v = row[i]!
        if (typeof v !== 'string' || !isText[i]) {
          data[i]!.push(v)
          continue
        }
        const seen = known[i]!
        let bytes = seen.size < DISTINCT_KEPT ? seen.get(v) : undefined
        if (bytes === undefined) {
          bytes = Buffer.from(v, 'utf8')
          if (seen.size < DISTINCT_KEPT) seen.set(v, bytes)
        }
        data[i]!.push(bytes)
      }
      if (++count >= PARQUET_GROUP_ROWS) {
        await flush()
        yield take()
      }
    }
  }
  if (count > 0) await flush()
  await pq.finish()
  yield take()
}

/** A raw export ready to send: its file name, content type and body. */
export interface RawFile {
  fileName: string
  contentType: string
  body: AsyncGenerator<string | Uint8Array>
}

/** `rows` as a file `<name>.<format>`. */
export function rawFile(name: string, rows: RawRows, format: RawFormat): RawFile {
  return {
    fileName: `${name}.${format}`,
    contentType: RAW_CONTENT_TYPES[format],
    body: encodeRaw(rows, format),
  }
}

const Text = Type.Unsafe<Readable>({ type: 'string' })
/** The 200 response of a raw export route (OpenAPI): one body, in the asked format. */
export const RAW_FILE_RESPONSE = {
  description: 'The rows',
  content: {
    'application/x-ndjson': { schema: Text },
    'text/csv': { schema: Text },
    'application/vnd.apache.parquet': { schema: Type.Unsafe<Readable>({ type: 'string', format: 'binary' }) },
  },
}

/** Streams a raw export as a download named by Content-Disposition. */
export function sendRawFile(reply: FastifyReply, file: RawFile): FastifyReply {
  return reply
    .header('content-type', file.contentType)
    .header('content-disposition', `attachment; filename="${file.fileName}"`)
    .send(Readable.from(file.body))
}
