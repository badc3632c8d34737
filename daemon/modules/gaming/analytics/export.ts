/**
 * Export: a registry of row sources keyed by type, and the CSV / JSON encoders
 * that stream them with constant memory. A row source checks its input (game, range) in `open`,
 * before anything is sent, then yields flat rows one by one (a big type pages through its store
 * by keyset and yields as it goes); the encoders batch rows into chunks of ~64 KB.
 */
import { AppError } from '../../../http/errors.js'
import type { ExportQuery } from '../../../../src/contract/gaming.js'
import { csvRow } from '../../../../src/contract/csv.js'

export type Cell = string | number | boolean | null
export type FlatRow = Record<string, Cell>

export interface ExportRequest {
  organizationId: string
  slug: string
  query: ExportQuery
}

/** One export type: its columns (the CSV header, in order; per query when a grouping adds one) and its rows. */
export interface RowSource {
  columns: readonly string[] | ((query: ExportQuery) => readonly string[])
  /** Resolves the game and checks the query (AppError before any byte is sent), then the rows. */
  open(request: ExportRequest): Promise<AsyncIterable<FlatRow>>
}

/** The export types and their row sources. */
export interface ExportRegistry {
  /** Adds an export type (an Error when the type is registered already). */
  register(type: string, source: RowSource): void
  /** The registered types, in registration order. */
  types(): string[]
  /** The source of a type; 400 naming the known types for any other. */
  source(type: string): RowSource
}

export function createExportRegistry(): ExportRegistry {
  const sources = new Map<string, RowSource>()
  return {
    register(type: string, source: RowSource): void {
      if (sources.has(type)) throw new Error(`export type ${type} is registered twice`)
      sources.set(type, source)
    },
    types: (): string[] => [...sources.keys()],
    source(type: string): RowSource {
      const source = sources.get(type)
      if (!source)
        throw new AppError('ValidationError', `type ${type} cannot be exported`, [
          { field: 'type', message: `must be one of ${[...sources.keys()].join(', ')}` },
        ])
      return source
    },
  }
}

/** A source that yields the rows of an array: for the small reports (one page of rows at most). */
export function rowsOf(rows: FlatRow[]): AsyncIterable<FlatRow> {
  return (async function* () {
    yield* rows
  })()
}

const CHUNK = 64 * 1024

/** The export as text chunks: CSV (header row, CRLF line ends) or a JSON array, at most `limit` rows. */
export async function* encodeExport(
  columns: readonly string[],
  rows: AsyncIterable<FlatRow>,
  format: 'csv' | 'json',
  limit: number,
  onRow?: () => void,
): AsyncGenerator<string> {
  let chunk = format === 'csv' ? csvRow(columns) : '['
  let count = 0
  for await (const row of rows) {
    if (count >= limit) break
    if (format === 'csv') chunk += csvRow(columns.map((c) => row[c]))
    else chunk += (count ? ',\n' : '\n') + JSON.stringify(row)
    count++
    onRow?.()
    if (chunk.length >= CHUNK) {
      yield chunk
      chunk = ''
    }
  }
  if (format === 'json') chunk += count ? '\n]\n' : ']\n'
  yield chunk
}
