/**
 * `npm run bench raw-export`: the raw events export of a game holding BENCH_EXPORT_ROWS raw events
 * (default 10,000,000, seeded with direct SQL into a SQLite file), read page by page from the
 * store and encoded as NDJSON, CSV and Parquet, in this process (the HTTP response only copies the
 * chunks). Prints rows/s (goal >= 200,000; per CPU second too, steadier on a loaded machine) and
 * the RSS growth over the export (goal <= 64 MB), with the part of it in the JS heap and external.
 * The seeded file is kept in the temp directory and reused by the next run of the same size.
 */
import { copyFileSync, existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs'
import { fork } from 'node:child_process'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { arrayRows } from '../../daemon/db/array-rows.js'
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
  try {
    const db = openDatabase(`sqlite:${file}`)
    if (db.dialect !== 'sqlite') throw new Error('the raw export bench runs on SQLite')
    await migrate(db, Date.now())
    if (!existsSync(cached)) await seed(db.sqlite, file, cached)
    await db.close()
    // Each format in a process of its own: RSS given back by one export would hide the next one's.
    const rows: Array<[string, string]> = []
    for (const format of ['ndjson', 'csv', 'parquet'] as RawFormat[])
      rows.push(...(await inChild(file, format)))
    report(`raw export, ${ROWS} raw events (SQLite)`, rows)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

function inChild(file: string, format: RawFormat): Promise<Array<[string, string]>> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), [CHILD, file, format], {
      execArgv: [...process.execArgv, '--expose-gc'],
    })
    let rows: Array<[string, string]> | undefined
    child.on('message', (m) => (rows = m as Array<[string, string]>))
    child.on('error', reject)
    child.on('exit', (code) =>
      rows ? resolve(rows) : reject(new Error(`${format} export exited with ${code}`)),
    )
  })
}

/** One export of the seeded file in `format`: its figures. */
async function exportOnce(file: string, format: RawFormat): Promise<Array<[string, string]>> {
  const db = openDatabase(`sqlite:${file}`)
  try {
    const store = createRawEventsStore(db.kysely, arrayRows(db))
    const mb = (n: number) => fmt(n / 1024 / 1024)
    global.gc?.()
    const before = process.memoryUsage()
    const peak = { rss: before.rss, heapUsed: before.heapUsed, external: before.external }
    let bytes = 0
    let chunks = 0
    const cpu = process.cpuUsage()
    const started = performance.now()
    const first = Math.floor(START / DAY)
    for await (const chunk of encodeRaw(rawEventRows(store, 'g1', first, first + 9), format)) {
      bytes += chunk.length
      // RSS on every chunk (cheap); the JS heap and external memory every 16 chunks.
      peak.rss = Math.max(peak.rss, process.memoryUsage.rss())
      if (++chunks % 16 === 0) {
        const m = process.memoryUsage()
        peak.heapUsed = Math.max(peak.heapUsed, m.heapUsed)
        peak.external = Math.max(peak.external, m.external)
      }
    }
    const seconds = (performance.now() - started) / 1000
    const used = process.cpuUsage(cpu)
    const cpuSeconds = (used.user + used.system) / 1e6
    const goal = format === 'csv' ? '' : ' (goal >= 200,000)'
    return [
      [`${format}: rows/s${goal}`, fmt(ROWS / seconds, 0)],
      [`${format}: rows per CPU second`, fmt(ROWS / cpuSeconds, 0)],
      [`${format}: MB written`, mb(bytes)],
      [`${format}: RSS growth, MB${format === 'csv' ? '' : ' (goal <= 64)'}`, mb(peak.rss - before.rss)],
      [
        `${format}: JS heap / external growth, MB`,
        `${mb(peak.heapUsed - before.heapUsed)} / ${mb(peak.external - before.external)}`,
      ],
    ]
  } finally {
    await db.close()
  }
}

const CHILD = '--raw-export-child'
if (process.argv[2] === CHILD) {
  // Also run by hand, to profile one export: node --import tsx --cpu-prof test/bench/raw-export.ts
  // --raw-export-child <seeded file copy> <format>
  const rows = await exportOnce(process.argv[3]!, process.argv[4] as RawFormat)
  if (!process.send) report(`raw export (${process.argv[3]})`, rows)
  else process.send(rows, () => process.disconnect())
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
