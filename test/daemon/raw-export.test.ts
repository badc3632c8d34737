/**
 * The raw export encoders pinned byte for byte: the same rows give the same NDJSON, CSV and
 * Parquet files (a change to the encoders that changes a file shows here), across pages, Parquet
 * row groups, repeated and distinct text, nulls, formula-like and non-ASCII text.
 */
import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parquetReadObjects } from 'hyparquet'
import { describe, expect, it } from 'vitest'
import {
  encodeRaw,
  PARQUET_GROUP_ROWS,
  rawColumns,
  type RawCell,
  type RawRows,
} from '../../daemon/raw-export.js'
import type { RawFormat } from '../../src/contract/raw-export.js'
import { duckPath, duckRows } from '../support/duckdb.js'

const NAMES = ['id', 'kind', 'ts', 'note', 'bot'] as const
const COLUMNS = rawColumns(NAMES, {
  id: { nullable: false },
  ts: { kind: 'timestamp', nullable: false },
  bot: { kind: 'boolean', nullable: false },
})
const START = Date.parse('2026-11-20T00:00:00Z')
const NOTES = ['=SUM(A1)', 'a,"b"', 'größe ✓', null, '{"level":3}']

/** Row `i` of the pinned data: cells in the columns' order. */
function cells(i: number): RawCell[] {
  return [
    `e${i}`,
    i % 3 ? 'level_start' : 'purchase',
    START + Math.floor(i / 4) * 250,
    NOTES[i % 5]!,
    i % 7 === 0,
  ]
}

/** `count` rows in pages of `page`, as the stores give them. */
function rows(count: number, page: number): RawRows {
  async function* pages() {
    for (let i = 0; i < count; i += page) {
      const out = []
      for (let j = i; j < Math.min(count, i + page); j++) out.push(cells(j))
      yield out
    }
  }
  return { columns: COLUMNS, pages: pages() }
}

async function encoded(format: RawFormat, count: number, page: number): Promise<Buffer> {
  const parts: Buffer[] = []
  for await (const chunk of encodeRaw(rows(count, page), format)) parts.push(Buffer.from(chunk))
  return Buffer.concat(parts)
}
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex').slice(0, 16)

describe('raw export encoders', () => {
  it('NDJSON and CSV: the first lines as written, the whole file pinned', async () => {
    const ndjson = await encoded('ndjson', 300, 64)
    expect(ndjson.toString().split('\n').slice(0, 2)).toEqual([
      '{"id":"e0","kind":"purchase","ts":"2026-11-20T00:00:00.000Z","note":"=SUM(A1)","bot":true}',
      '{"id":"e1","kind":"level_start","ts":"2026-11-20T00:00:00.000Z","note":"a,\\"b\\"","bot":false}',
    ])
    const csv = await encoded('csv', 300, 64)
    expect(csv.toString().split('\r\n').slice(0, 5)).toEqual([
      'id,kind,ts,note,bot',
      "e0,purchase,2026-11-20T00:00:00.000Z,'=SUM(A1),true",
      'e1,level_start,2026-11-20T00:00:00.000Z,"a,""b""",false',
      'e2,level_start,2026-11-20T00:00:00.000Z,größe ✓,false',
      'e3,purchase,2026-11-20T00:00:00.000Z,,false',
    ])
    expect([sha(ndjson), ndjson.length]).toEqual(['c10f1f847904acc9', 28707])
    expect([sha(csv), csv.length]).toEqual(['90dac75e95c2deb2', 17208])
  })

  it('the pages the rows come in change nothing', async () => {
    for (const format of ['ndjson', 'csv', 'parquet'] as const)
      expect(sha(await encoded(format, 300, 7))).toBe(sha(await encoded(format, 300, 300)))
  })

  it('Parquet: DuckDB and hyparquet read back every row as given, over several row groups', async () => {
    const count = 2 * PARQUET_GROUP_ROWS + 5
    const file = await encoded('parquet', count, 1_000)
    const expected = Array.from({ length: count }, (_, i) => {
      const [id, kind, ts, note, bot] = cells(i)
      return { id, kind, ts: new Date(ts as number), note, bot }
    })
    const bytes = file.buffer.slice(file.byteOffset, file.byteOffset + file.length) as ArrayBuffer
    expect(await parquetReadObjects({ file: bytes })).toEqual(expected)
    const dir = mkdtempSync(join(tmpdir(), 'raw-parquet-'))
    try {
      writeFileSync(join(dir, 'rows.parquet'), file)
      const path = duckPath(join(dir, 'rows.parquet'))
      const read = await duckRows(
        `SELECT * FROM read_parquet(${path}) ORDER BY CAST(substr(id, 2) AS INTEGER)`,
      )
      expect(read).toEqual(expected)
      const types = await duckRows(
        `SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet(${path}))`,
      )
      expect(types.map((t) => `${t.column_name} ${t.column_type}`)).toEqual([
        'id VARCHAR',
        'kind VARCHAR',
        'ts TIMESTAMP',
        'note VARCHAR',
        'bot BOOLEAN',
      ])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('Parquet: one row group, and several, pinned', async () => {
    const small = await encoded('parquet', 300, 64)
    expect(small.subarray(0, 4).toString()).toBe('PAR1')
    expect([sha(small), small.length]).toEqual(['d99f8c11695691d2', 2447])
    const groups = await encoded('parquet', 2 * PARQUET_GROUP_ROWS + 5, 10_000)
    expect([sha(groups), groups.length]).toEqual(['348b2394d01c5dfd', 213916])
  })

  it('no rows: NDJSON is empty, CSV a header, Parquet a file without row groups', async () => {
    expect((await encoded('ndjson', 0, 1)).length).toBe(0)
    expect((await encoded('csv', 0, 1)).toString()).toBe('id,kind,ts,note,bot\r\n')
    expect(sha(await encoded('parquet', 0, 1))).toBe('b08237818e7b0591')
  })
})
