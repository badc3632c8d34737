/**
 * `npm run bench raw-export`: the raw events export of a game holding BENCH_EXPORT_ROWS raw events
 * (default 10,000,000, seeded with direct SQL into a SQLite file), read page by page from the
 * store and encoded as NDJSON and as Parquet, in this process (the HTTP response only copies the
 * chunks). Prints rows/s (goal >= 200,000) and the RSS growth over the export (goal <= 64 MB).
 * The seeded file is kept in the temp directory and reused by the next run of the same size.
 */
import { copyFileSync, existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { migrate } from '../../daemon/db/migrate.js'
import { openDatabase } from '../../daemon/db/open.js'
import type { Database as Sqlite } from 'better-sqlite3'
import { encodeRaw } from '../../daemon/raw-export.js'
import { rawEventRows } from '../../daemon/modules/gaming/analytics/raw-events.js'
import { createRawEventsStore } from '../../daemon/modules/gaming/storage/raw-events-store.js'
import type { RawFormat } from '../../src/contract/raw-export.js'
import { fmt, report } from './lib.js'

const ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 10_000_000)
const DAY = 86_400_000
const START = Date.parse('2026-11-01T00:00:00Z')
const TYPES = ['level_start', 'level_complete', 'purchase', 'session_start', 'battle_won']

export async function rawExportBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'linkd-bench-export-'))
  const cached = join(tmpdir(), `linkd-bench-export-${ROWS}.db`)
  const file = join(dir, 'linkd.db')
  if (existsSync(cached)) copyFileSync(cached, file)
  const db = openDatabase(`sqlite:${file}`)
  if (db.dialect !== 'sqlite') throw new Error('the raw export bench runs on SQLite')
  try {
    await migrate(db, Date.now())
    if (!existsSync(cached)) await seed(db.sqlite, file, cached)

    const store = createRawEventsStore(db.kysely)
    const rows: Array<[string, string]> = []
    for (const format of ['ndjson', 'parquet'] as RawFormat[]) {
      global.gc?.()
      const before = process.memoryUsage().rss
      let peak = before
      let bytes = 0
      const started = performance.now()
      const first = Math.floor(START / DAY)
      for await (const chunk of encodeRaw(rawEventRows(store, 'g1', first, first + 9), format)) {
        bytes += chunk.length
        const rss = process.memoryUsage().rss
        if (rss > peak) peak = rss
      }
      const seconds = (performance.now() - started) / 1000
      rows.push(
        [`${format}: rows/s (goal >= 200,000)`, fmt(ROWS / seconds, 0)],
        [`${format}: MB written`, fmt(bytes / 1024 / 1024)],
        [`${format}: RSS growth, MB (goal <= 64)`, fmt((peak - before) / 1024 / 1024)],
      )
    }
    report(`raw export, ${ROWS} raw events (SQLite)`, rows)
  } finally {
    await db.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Seeds ROWS raw events (direct SQL) and keeps a copy of the file as `cached`. */
async function seed(sqlite: Sqlite, file: string, cached: string): Promise<void> {
  const seeded = Date.now()
  const insert = sqlite.prepare(
    `INSERT INTO game_events (game_id, event_id, event_type, player_id, session_id, platform, ts,
         received_at, batch_id, revenue_micros, country, verdict, data)
       VALUES ('g1', ?, ?, ?, ?, 'ios', ?, ?, 'b', 0, 'DE', 'accept', ?)`,
  )
  // Spread over 10 days; about 5 events share each millisecond.
  const step = (10 * DAY) / ROWS
  const fill = sqlite.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const ts = START + Math.floor(i * step)
      insert.run(
        `e${i.toString(36).padStart(8, '0')}`,
        TYPES[i % TYPES.length],
        `player-${i % 50_000}`,
        `s${i % 200_000}`,
        ts,
        ts,
        `{"level":${i % 100}}`,
      )
    }
  })
  for (let i = 0; i < ROWS; i += 500_000) fill(i, Math.min(ROWS, i + 500_000))
  process.stdout.write(`seeded ${ROWS} raw events in ${fmt((Date.now() - seeded) / 1000)} s\n`)

  sqlite.pragma('wal_checkpoint(TRUNCATE)')
  copyFileSync(file, `${cached}.tmp`)
  renameSync(`${cached}.tmp`, cached)
}
