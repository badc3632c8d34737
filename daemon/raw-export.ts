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
import { snappyCompressor } from './snappy.js'

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

/** Text columns with at most this many distinct values in a row group are dictionary-encoded. */
const DICTIONARY_MAX = 1024
/** "PAR1", the magic number that starts and ends a Parquet file. */
const PAR1 = 0x31524150

/** The Parquet type of each kind of column. */
const PARQUET_TYPES = {
  string: { type: 'BYTE_ARRAY', converted_type: 'UTF8' },
  timestamp: { type: 'INT64', converted_type: 'TIMESTAMP_MILLIS' },
  boolean: { type: 'BOOLEAN' },
} as const

type FileMetaData = Parameters<typeof import('hyparquet-writer/src/metadata.js').writeMetadata>[1]
type ColumnChunk = FileMetaData['row_groups'][number]['columns'][number]
type ColumnMetaData = NonNullable<ColumnChunk['meta_data']>
type PageHeader = Parameters<typeof import('hyparquet-writer/src/datapage.js').writePageHeader>[1]

/** Node's Buffer#write for UTF-8 without the argument checks (it runs once per text value). */
type Utf8Buffer = Buffer & { utf8Write(text: string, offset: number, length: number): number }

/**
 * One column of the row group being filled, encoded value by value as the rows come (no value is
 * kept past its page: rows die young): definition levels; text as dictionary indexes while the
 * group has at most DICTIONARY_MAX distinct texts, else PLAIN (length, UTF-8 bytes) into one
 * reused buffer; timestamps PLAIN INT64 with their min and max; booleans as 0/1.
 */
class ParquetColumn {
  readonly levels = new Uint8Array(PARQUET_GROUP_ROWS)
  /** Dictionary indexes (text), or 0/1 (booleans), of the non-null values. */
  readonly indexes = new Int32Array(PARQUET_GROUP_ROWS)
  /** PLAIN bytes: text once the dictionary is given up, timestamps. */
  bytes = Buffer.allocUnsafe(1 << 16) as Utf8Buffer
  at = 0
  rows = 0
  values = 0
  nulls = 0
  min = Infinity
  max = -Infinity
  /** The group's distinct texts and their indexes; null: this group's text is PLAIN. */
  dictionary: Map<string, number> | null
  keys: string[] = []
  /** Whether the dictionary overflowed: the next group starts PLAIN (ids are distinct anyway). */
  overflowed = false

  constructor(readonly column: RawColumn) {
    this.dictionary = column.kind === 'string' ? new Map() : null
  }

  add(v: RawCell): void {
    if (v === null) {
      this.levels[this.rows++] = 0
      this.nulls++
      return
    }
    this.levels[this.rows++] = 1
    const kind = this.column.kind
    if (kind === 'string') {
      const text = typeof v === 'string' ? v : String(v)
      const dictionary = this.dictionary
      if (dictionary) {
        let index = dictionary.get(text)
        if (index === undefined) {
          if (this.keys.length === DICTIONARY_MAX) {
            this.plain()
            this.overflowed = true
            return this.text(text)
          }
          index = this.keys.length
          dictionary.set(text, index)
          this.keys.push(text)
        }
        this.indexes[this.values++] = index
      } else this.text(text)
    } else if (kind === 'timestamp') {
      const ms = typeof v === 'number' ? v : Number(v)
      if (ms < this.min) this.min = ms
      if (ms > this.max) this.max = ms
      this.room(8)
      this.bytes.writeUInt32LE(ms >>> 0, this.at)
      this.bytes.writeInt32LE(Math.floor(ms / 0x1_0000_0000), this.at + 4)
      this.at += 8
      this.values++
    } else this.indexes[this.values++] = v ? 1 : 0
  }

  /** The dictionary given up: the texts so far as PLAIN. */
  plain(): void {
    const { keys, indexes } = this
    for (let i = 0; i < this.values; i++) this.text(keys[indexes[i]!]!, false)
    this.dictionary = null
  }

  /** `text` PLAIN-encoded after the bytes so far. */
  text(text: string, counted = true): void {
    this.room(4 + 3 * text.length)
    const length = this.bytes.utf8Write(text, this.at + 4, this.bytes.length - this.at - 4)
    this.bytes.writeUInt32LE(length, this.at)
    this.at += 4 + length
    if (counted) this.values++
  }

  private room(size: number): void {
    if (this.at + size <= this.bytes.length) return
    const bigger = Buffer.allocUnsafe(Math.max(this.at + size, 2 * this.bytes.length)) as Utf8Buffer
    this.bytes.copy(bigger, 0, 0, this.at)
    this.bytes = bigger
  }

  /** Ready for the next group. */
  reset(): void {
    this.rows = this.values = this.nulls = this.at = 0
    this.min = Infinity
    this.max = -Infinity
    this.keys = []
    if (this.overflowed || this.column.kind !== 'string') this.dictionary = null
    else (this.dictionary ??= new Map()).clear()
    this.overflowed = false
  }
}

/**
 * Parquet written from the rows' arrays: the header, each row group (PARQUET_GROUP_ROWS rows) as
 * soon as it fills, then the footer (a file without rows has no row group). Per group and column
 * one data page (v2, SNAPPY, daemon/snappy.ts). Memory holds one group's encoded columns
 * (hyparquet-writer's ParquetWriter kept a group's values and a buffer per value: most of an
 * export's memory and time); hyparquet-writer writes the Thrift page headers and the footer.
 */
async function* parquet({ columns, pages }: RawRows): AsyncGenerator<Uint8Array> {
  // Loaded on the first Parquet export only (start-up stays light).
  const [{ ByteWriter }, { writePageHeader }, { writeRleBitPackedHybrid }, { writeMetadata }] =
    await Promise.all([
      import('hyparquet-writer'),
      import('hyparquet-writer/src/datapage.js'),
      import('hyparquet-writer/src/encoding.js'),
      import('hyparquet-writer/src/metadata.js'),
    ])
  const out = new ByteWriter(1 << 20)
  const take = (): Uint8Array => {
    const bytes = out.getBytes().slice()
    out.index = 0
    return bytes
  }
  const schema: FileMetaData['schema'] = [{ name: 'root', num_children: columns.length }]
  for (const c of columns)
    schema.push({
      name: c.name,
      ...PARQUET_TYPES[c.kind],
      repetition_type: c.nullable ? 'OPTIONAL' : 'REQUIRED',
    })

  const snappy = snappyCompressor()
  const levelWriter = new ByteWriter(4096)
  const dataWriter = new ByteWriter(1 << 16)
  /** `values` in the RLE/bit-packed hybrid, after their bit width or byte length: dataWriter's bytes. */
  const hybrid = (values: Int32Array, bitWidth: number, prefix: 'width' | 'length'): Uint8Array => {
    dataWriter.index = 0
    if (prefix === 'width') dataWriter.appendUint8(bitWidth)
    else dataWriter.appendUint32(0)
    const length = writeRleBitPackedHybrid(dataWriter, values, bitWidth)
    if (prefix === 'length') dataWriter.view.setUint32(0, length, true)
    return dataWriter.getBytes()
  }
  /** A page: its header, the definition levels as they are, the compressed data. Its size uncompressed. */
  const page = (header: PageHeader, levelBytes: Uint8Array, data: Uint8Array): number => {
    const compressed = snappy(data)
    const start = out.offset
    header.uncompressed_page_size = levelBytes.length + data.length
    header.compressed_page_size = levelBytes.length + compressed.length
    writePageHeader(out, header)
    const headerSize = out.offset - start
    out.appendBytes(levelBytes)
    out.appendBytes(compressed)
    return headerSize + levelBytes.length + data.length
  }

  /** A column of the group written as one column chunk. */
  const chunk = (col: ParquetColumn): ColumnChunk => {
    const { column, rows, values } = col
    const start = out.offset
    levelWriter.index = 0
    if (column.nullable) writeRleBitPackedHybrid(levelWriter, col.levels.subarray(0, rows), 1)
    const levelBytes = levelWriter.getBytes()
    const meta: ColumnMetaData = {
      type: PARQUET_TYPES[column.kind].type,
      encodings: ['PLAIN'],
      path_in_schema: [column.name],
      codec: 'SNAPPY',
      num_values: BigInt(rows),
      total_uncompressed_size: 0n,
      total_compressed_size: 0n,
      data_page_offset: 0n,
    }
    let size = 0
    // A dictionary pays when the texts repeat (ids do not); a column of nulls has no values.
    if (col.dictionary && (col.keys.length * 2 > values || values === 0)) col.plain()
    let data: Uint8Array = col.bytes.subarray(0, col.at)
    if (col.dictionary) {
      col.at = 0
      for (const text of col.keys) col.text(text, false)
      meta.dictionary_page_offset = BigInt(out.offset)
      const header: PageHeader = {
        type: 'DICTIONARY_PAGE',
        uncompressed_page_size: 0,
        compressed_page_size: 0,
        dictionary_page_header: { num_values: col.keys.length, encoding: 'PLAIN' },
      }
      size += page(header, new Uint8Array(0), col.bytes.subarray(0, col.at))
      const bitWidth = 32 - Math.clz32(Math.max(col.keys.length - 1, 0))
      data = hybrid(col.indexes.subarray(0, values), bitWidth, 'width')
      meta.encodings = ['PLAIN', 'RLE_DICTIONARY']
    } else if (column.kind === 'timestamp') {
      meta.statistics = {
        null_count: BigInt(col.nulls),
        ...(values ? { min_value: col.min, max_value: col.max } : {}),
      }
      meta.encoding_stats = [{ page_type: 'DATA_PAGE_V2', encoding: 'PLAIN', count: 1 }]
    } else if (column.kind === 'boolean') {
      data = hybrid(col.indexes.subarray(0, values), 1, 'length')
      meta.encodings = ['RLE']
    }
    meta.data_page_offset = BigInt(out.offset)
    const header: PageHeader = {
      type: 'DATA_PAGE_V2',
      uncompressed_page_size: 0,
      compressed_page_size: 0,
      data_page_header_v2: {
        num_values: rows,
        num_nulls: col.nulls,
        num_rows: rows,
        encoding: meta.encodings.at(-1)!,
        definition_levels_byte_length: levelBytes.length,
        repetition_levels_byte_length: 0,
        is_compressed: true,
      },
    }
    size += page(header, levelBytes, data)
    meta.total_uncompressed_size = BigInt(size)
    meta.total_compressed_size = BigInt(out.offset - start)
    col.reset()
    return { file_offset: BigInt(start), meta_data: meta }
  }

  const group = columns.map((c) => new ParquetColumn(c))
  const n = group.length
  const rowGroups: FileMetaData['row_groups'] = []
  let count = 0
  let total = 0n
  const writeGroup = () => {
    const start = out.offset
    const chunks = group.map(chunk)
    let size = 0n
    for (const c of chunks) size += c.meta_data!.total_uncompressed_size
    const rows = BigInt(count)
    rowGroups.push({
      columns: chunks,
      total_byte_size: size,
      num_rows: rows,
      total_compressed_size: BigInt(out.offset - start),
    })
    total += rows
    count = 0
  }
  out.appendUint32(PAR1)
  yield take()
  for await (const page of pages) {
    for (const row of page) {
      for (let i = 0; i < n; i++) group[i]!.add(row[i]!)
      if (++count === PARQUET_GROUP_ROWS) {
        writeGroup()
        yield take()
      }
    }
  }
  if (count > 0) writeGroup()
  const metadata = { version: 2, created_by: 'linkd', schema, num_rows: total, row_groups: rowGroups }
  writeMetadata(out, metadata as FileMetaData)
  out.appendUint32(PAR1)
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
