import { randomBytes } from 'node:crypto'
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp } from '../../daemon/app.js'
import { loadConfig } from '../../daemon/config.js'
import { migrate } from '../../daemon/db/migrate.js'
import { openDatabase } from '../../daemon/db/open.js'
import { prng } from '../support/prng.js'
import { fraudIngestionBench, ingestionBench, sdkShapedBench } from './gaming-ingestion.js'
import { historyBench } from './gaming-history.js'
import { playersBench } from './gaming-players.js'
import { fmt, median, percentile, report } from './lib.js'

const DAY = 86_400_000

/** Two-letter country codes (AK, BK, …): 30 values of the country dimension. */
export const COUNTRIES = Array.from({ length: 30 }, (_, i) =>
  String.fromCharCode(65 + (i % 26), 65 + Math.floor(i / 26) + 10),
)

/** The values of each profile dimension of the generated players (first-touch attribution). */
export const PROFILE_VALUES = {
  platform: ['ios', 'android', 'web'],
  country: COUNTRIES,
  source: ['organic', 'facebook', 'google', 'tiktok', 'unity'],
  medium: ['organic', 'cpc', 'cpi', 'social'],
  campaign: Array.from({ length: 20 }, (_, i) => `campaign-${i}`),
  affiliate: Array.from({ length: 10 }, (_, i) => `affiliate-${i}`),
} as const

/** Player i's value of a profile dimension: a multiplicative hash spreads the values evenly. */
export function profileValue(dim: keyof typeof PROFILE_VALUES, i: number): string {
  const values = PROFILE_VALUES[dim]
  const salt = Object.keys(PROFILE_VALUES).indexOf(dim) * 7919
  return values[(Math.imul(i + salt, 2_654_435_761) >>> 16) % values.length]!
}

/**
 * Aggregates of `players` players over `days` days written straight into the tables the overview
 * reads (daily totals, distinct-player gaps, cohorts) plus the player profiles, with prepared
 * statements in one transaction per table.
 */
function fillAggregates(
  sqlite: import('better-sqlite3').Database,
  gameId: string,
  players: number,
  days: number,
  now: number,
) {
  const rand = prng(11)
  const today = Math.floor(now / DAY)
  const first = today - days + 1
  const daily = sqlite.prepare(
    `INSERT INTO game_daily (game_id, day, active_players, new_players, paying_players, sessions, session_seconds,
       events, flagged_events, transactions, revenue_iap_micros, revenue_ad_micros, revenue_subscription_micros)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?)`,
  )
  const gap = sqlite.prepare(
    'INSERT INTO game_day_gaps (game_id, kind, day, prev_day, players) VALUES (?, ?, ?, ?, ?)',
  )
  const cohort = sqlite.prepare(
    'INSERT INTO game_cohorts (game_id, install_day, day_offset, players) VALUES (?, ?, ?, ?)',
  )
  const profile = sqlite.prepare(
    `INSERT INTO game_players (game_id, player_id, first_seen_at, install_day, last_active_at, last_active_day,
       platform, country, affiliate, campaign, source, medium, session_count, event_count, transactions,
       revenue_iap_micros, revenue_ad_micros, revenue_subscription_micros, revenue_total_micros)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, 0, 0, 0)`,
  )
  const perDay = Math.ceil(players / days)
  sqlite.transaction(() => {
    for (let d = 0; d < days; d++) {
      const day = first + d
      const active = Math.floor(players * 0.3)
      // prettier-ignore
      daily.run(gameId, day, active, perDay, Math.floor(active * 0.03), active * 2, active * 600, active * 40,
        active * 0.05, active * 500_000, active * 20_000, active * 100_000)
      for (const kind of ['active', 'paying']) {
        gap.run(gameId, kind, day, -1, kind === 'active' ? perDay : 100)
        for (let p = Math.max(first, day - 59); p < day; p++)
          gap.run(gameId, kind, day, p, Math.floor(rand() * (kind === 'active' ? 10_000 : 30)))
      }
      for (let o = 0; o <= today - day; o++)
        cohort.run(gameId, day, o, Math.floor(perDay * (o === 0 ? 1 : 0.4 / o)))
    }
  })()
  sqlite.transaction(() => {
    for (let i = 0; i < players; i++) {
      const install = first + (i % days)
      // Last active between the install and today (most players churn early); heavy-tailed sessions.
      const lastActive = install + Math.floor((today - install) * rand() ** 2)
      const sessions = 1 + Math.floor(300 * rand() ** 4)
      const at = Math.min(now, lastActive * DAY + Math.floor(rand() * DAY))
      const v = (dim: keyof typeof PROFILE_VALUES) => profileValue(dim, i)
      // prettier-ignore
      profile.run(gameId, `player-${i}`, install * DAY, install, at, lastActive, v('platform'), v('country'),
        v('affiliate'), v('campaign'), v('source'), v('medium'), sessions, sessions * 20)
    }
    // The profile counter the store keeps on insert (segments and the explorer's total read it).
    sqlite.prepare('INSERT INTO game_player_totals (game_id, players) VALUES (?, ?)').run(gameId, players)
  })()
}

/** The app of the analytics benches, on a fresh database, and what a bench needs of it. */
export interface AggregatesBench {
  app: Awaited<ReturnType<typeof buildApp>>
  sqlite: import('better-sqlite3').Database
  key: string
  organizationId: string
  game: { id: string; internalId: string }
  /** The time the data was generated for: the app's clock starts there (a cached seed is older). */
  now: number
  /** Seconds spent generating the overview's aggregates. */
  loadS: number
  /** Median and p99 of 50 calls (after 5 warm-ups) of GET url, as a report line. */
  time(url: string): Promise<string>
}

/**
 * A seeded database kept in the temp directory (`file`, and `file`.json for the ids, key and
 * times) and reused by the next run: `fill` adds a bench's own layers once, what it returns is
 * kept. Bump the version in the file name when what is seeded changes.
 */
export interface SeedCache<S> {
  file: string
  fill(b: AggregatesBench): S
}

interface SeedMeta<S> {
  masterKey: string
  key: string
  organizationId: string
  game: { id: string; internalId: string }
  now: number
  loadS: number
  seeded: S
}

/**
 * Builds the app on a fresh database, fills the overview's aggregates of `players` players over
 * `days` days (fillAggregates) and runs `bench` (the gaming-analytics bench adds its own layers).
 * With `cache`, a copy of the cached seed instead when there is one, the app's clock moved back
 * to the time the seed was generated for.
 */
export async function withAggregates<R, S = undefined>(
  players: number,
  days: number,
  bench: (b: AggregatesBench, seeded: S | undefined, cached: boolean) => Promise<R>,
  cache?: SeedCache<S>,
): Promise<R> {
  const dir = mkdtempSync(join(tmpdir(), 'linkd-bench-overview-'))
  const config = loadConfig({ env: {}, flags: { dataDir: dir, logLevel: 'silent', jobs: false } })
  const hit = cache && existsSync(cache.file) && existsSync(`${cache.file}.json`)
  const meta = hit ? (JSON.parse(readFileSync(`${cache.file}.json`, 'utf8')) as SeedMeta<S>) : undefined
  if (hit) copyFileSync(cache.file, join(dir, 'linkd.db'))
  const db = openDatabase(config.databaseUrl)
  try {
    await migrate(db, Date.now())
    const masterKey = meta ? Buffer.from(meta.masterKey, 'hex') : randomBytes(32)
    const shift = meta ? Date.now() - meta.now : 0
    const app = await buildApp({ config, db, masterKey, clock: { now: () => Date.now() - shift } })
    try {
      const call = async (url: string, key: string) => {
        const s = performance.now()
        const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } })
        if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`)
        return performance.now() - s
      }
      const time = (key: string) => async (url: string) => {
        for (let i = 0; i < 5; i++) await call(url, key)
        const times: number[] = []
        for (let i = 0; i < 50; i++) times.push(await call(url, key))
        return `median ${fmt(median(times))} ms, p99 ${fmt(percentile(times, 99))} ms (target <= 50 / 150 ms)`
      }
      if (meta) {
        const b = { app, sqlite: db.sqlite, ...meta, time: time(meta.key) }
        return await bench(b, meta.seeded, true)
      }
      const { orgs, keys } = app.linkd.services
      const { games } = app.linkd.services.gaming
      const org = await orgs.create('bench')
      const key = (await keys.createOwnerKey(org.id)).key
      const game = await games.create(org.id, { name: 'Overview Bench', platform: 'android' })
      const internalId = (await games.record(org.id, game.id)).id
      const now = Date.now()
      const t0 = performance.now()
      fillAggregates(db.sqlite, internalId, players, days, now)
      const loadS = (performance.now() - t0) / 1000
      const game2 = { id: game.id, internalId }
      const b = {
        app,
        sqlite: db.sqlite,
        key,
        organizationId: org.id,
        game: game2,
        now,
        loadS,
        time: time(key),
      }
      if (!cache) return await bench(b, undefined, false)
      const seeded = cache.fill(b)
      db.sqlite.pragma('wal_checkpoint(TRUNCATE)')
      copyFileSync(join(dir, 'linkd.db'), `${cache.file}.tmp`)
      renameSync(`${cache.file}.tmp`, cache.file)
      const kept: SeedMeta<S> = {
        masterKey: masterKey.toString('hex'),
        key,
        organizationId: org.id,
        game: game2,
        now,
        loadS,
        seeded,
      }
      writeFileSync(`${cache.file}.json`, JSON.stringify(kept))
      return await bench(b, seeded, false)
    } finally {
      await app.close()
    }
  } finally {
    await db.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

async function overviewBench(): Promise<Array<[string, string]>> {
  const players = Number(process.env.BENCH_GAMING_PLAYERS ?? 1_000_000)
  const days = 60
  return withAggregates(players, days, async ({ game, now, loadS, time }) => {
    const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10)
    const url = `/api/v1/analytics/games/${game.id}/overview`
    return [
      [`load ${fmt(players / 1e6, 1)}M players x ${days} days of aggregates`, `${fmt(loadS, 1)} s`],
      ['overview, default range (last 30 days)', await time(url)],
      ['overview, 60 days', await time(`${url}?startDate=${iso(now - 59 * DAY)}&endDate=${iso(now)}`)],
    ]
  })
}

/** Gaming ingestion throughput against the raw insert rate, and the overview latency. */
export async function gamingBench(): Promise<void> {
  // BENCH_GAMING_CASES=players,history,sdk-batches,relay,typical,worst,worst-ordered,sdk,fraud,overview
  // (default: all) runs a subset.
  const cases = (
    process.env.BENCH_GAMING_CASES ??
    'players,history,sdk-batches,relay,typical,worst,worst-ordered,sdk,fraud,overview'
  ).split(',')
  if (cases.includes('players'))
    report(
      'gaming ingestion, the players shape: 10-event batches of one player, 1,000 addresses, 64 in flight',
      await playersBench(),
    )
  if (cases.includes('history'))
    report(
      'gaming ingestion, returning players: a batch of a player with months of history',
      await historyBench(),
    )
  const ingestion: Array<[string, string]> = []
  if (cases.includes('sdk-batches'))
    ingestion.push(
      ...(await ingestionBench({
        playersPerBatch: 1,
        label: '100-event batches of one player',
        shape: { size: 100, pool: 20_000 },
      })),
    )
  if (cases.includes('relay'))
    ingestion.push(
      ...(await ingestionBench({
        playersPerBatch: 0,
        label: 'relay: 1,000 events over 5,000 players',
        shape: { pool: 5_000 },
      })),
    )
  if (cases.includes('typical'))
    ingestion.push(...(await ingestionBench({ playersPerBatch: 10, label: '10 players/batch' })))
  if (cases.includes('worst'))
    ingestion.push(...(await ingestionBench({ playersPerBatch: 0, label: '1 player/event' })))
  if (cases.includes('worst-ordered'))
    ingestion.push(
      ...(await ingestionBench({
        playersPerBatch: 0,
        label: '1 player/event, times in order',
        ordered: true,
      })),
    )
  if (ingestion.length)
    report('gaming ingestion: events/s over HTTP vs raw better-sqlite3 inserts (same run)', ingestion)
  if (cases.includes('sdk'))
    report('gaming ingestion: the rate limits under SDK-shaped traffic', await sdkShapedBench())
  if (cases.includes('fraud'))
    report('gaming ingestion with fraud detection on vs off (same batches, same run)', [
      ...(await fraudIngestionBench(10, '10 players/batch')),
      ...(await fraudIngestionBench(10, 'one address (relay)', true)),
    ])
  if (cases.includes('overview'))
    report('gaming overview latency, 1M players x 60 days (50 calls each)', await overviewBench())
}
