import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp } from '../../daemon/app.js'
import { loadConfig } from '../../daemon/config.js'
import { migrate } from '../../daemon/db/migrate.js'
import { openDatabase } from '../../daemon/db/open.js'
import { startLinkd } from '../support/processes.js'
import { prng } from '../support/prng.js'
import { fmt, median, percentile, report } from './lib.js'

const DAY = 86_400_000
const BATCH = 1000
const BATCHES = Number(process.env.BENCH_GAMING_BATCHES ?? 120)
const SENDERS = 4

const TYPES = [
  'session_start',
  'level_start',
  'level_complete',
  'currency_earned',
  'battle_won',
  'session_end',
]

/**
 * Batches of 1,000 events in sessions with a few purchases. `playersPerBatch` players send each
 * batch (a game SDK flushes one device's events; a server relay merges a few players); 0 means
 * every event comes from another player of a pool of 200,000 (the worst case for the layers).
 * Event times are random within the last hour, or with `ordered` within a few seconds of the
 * batch's place in the sequence, as SDKs that flush every few seconds send them (the indexes
 * by time then grow at their end instead of everywhere).
 */
function makeBatches(now: number, playersPerBatch: number, ordered = false) {
  const rand = prng(7)
  const batches: Array<{ batch_id: string; batch_timestamp: string; events: Record<string, unknown>[] }> = []
  for (let b = 0; b < BATCHES; b++) {
    const events: Record<string, unknown>[] = []
    const group = Array.from({ length: playersPerBatch }, () => `player-${Math.floor(rand() * 200_000)}`)
    for (let i = 0; i < BATCH; i++) {
      const player = playersPerBatch ? group[i % playersPerBatch]! : `player-${Math.floor(rand() * 200_000)}`
      const purchase = rand() < 0.02
      events.push({
        event_id: randomUUID(),
        event_type: purchase ? 'purchase' : TYPES[i % TYPES.length],
        timestamp: new Date(
          ordered
            ? now - 3_600_000 + Math.floor(((b + rand()) * 3_600_000) / BATCHES)
            : now - Math.floor(rand() * 3_600_000),
        ).toISOString(),
        player_id: player,
        session_id: `${player}-s`,
        platform: 'android',
        data: purchase
          ? { amount: 4.99, currency: 'USD', country: 'DE' }
          : { level: Math.floor(rand() * 50), country: 'DE', device_fingerprint: `fp-${player}` },
      })
    }
    batches.push({ batch_id: randomUUID(), batch_timestamp: new Date(now).toISOString(), events })
  }
  return batches
}

/** The raw better-sqlite3 insert rate of the same rows into game_events (1,000 per transaction). */
function rawInsertRate(batches: ReturnType<typeof makeBatches>): number {
  const dir = mkdtempSync(join(tmpdir(), 'linkd-bench-gaming-raw-'))
  const db = openDatabase(`sqlite:${join(dir, 'raw.db')}`)
  try {
    migrate(db, Date.now())
    const ins = db.sqlite.prepare(
      `INSERT INTO game_events (game_id, event_id, event_type, player_id, session_id, platform, ts, received_at,
         batch_id, revenue_type, revenue_micros, currency, country, ip, device_fingerprint, verdict, data)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (game_id, event_id) DO NOTHING`,
    )
    const tx = db.sqlite.transaction((b: (typeof batches)[number]) => {
      for (const e of b.events) {
        const data = e.data as { amount?: number; currency?: string; device_fingerprint?: string }
        // prettier-ignore
        ins.run('gam_bench', e.event_id, e.event_type, e.player_id, e.session_id, e.platform,
          Date.parse(e.timestamp as string), Date.now(), b.batch_id, data.amount ? 'iap' : null,
          Math.round((data.amount ?? 0) * 1e6), data.currency ?? null, 'DE', '127.0.0.1',
          data.device_fingerprint ?? null, 'accept', JSON.stringify(e.data))
      }
    })
    const t0 = performance.now()
    for (const b of batches) tx(b)
    const s = (performance.now() - t0) / 1000
    return (batches.length * BATCH) / s
  } finally {
    void db.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

interface IngestionCase {
  playersPerBatch: number
  label: string
  /** Event times in send order (see makeBatches). */
  ordered?: boolean
  /** Fraud detection on, with all six templates enabled. */
  fraud?: boolean
  /**
   * Every batch from the bench's one address instead of 50,000 (a server relaying its players'
   * events): with fraud on, the device-farm template flags nearly every event.
   */
  oneAddress?: boolean
}

/** What one ingestion run measured. */
interface IngestionRun {
  /** Events sent per second over HTTP. */
  http: number
  latencies: number[]
  blocked: number
  flagged: number
  /** Σ fraud_daily.latency_ns / Σ analyzed, in µs (fraud runs only). */
  detectionUs: number | null
  batches: ReturnType<typeof makeBatches>
}

const linkdEnv = {
  LINKD_LOG_LEVEL: 'warn',
  LINKD_TRUST_PROXY: 'true',
  LINKD_RATE_LIMIT_PER_IP: '1000000000',
  // The bench sends more than 1,000 batches a minute to one game.
  LINKD_INGEST_RATE_LIMIT_PER_GAME: '1000000000',
}

async function ingestionRun(c: IngestionCase): Promise<IngestionRun> {
  const { playersPerBatch, ordered = false } = c
  const dataDir = mkdtempSync(join(tmpdir(), 'linkd-bench-gaming-'))
  const prof = process.env.BENCH_GAMING_PROF
  const linkd = await startLinkd(
    dataDir,
    linkdEnv,
    // BENCH_GAMING_PROF=dir: a CPU profile of the daemon (node --cpu-prof) for finding hot spots.
    prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}`] : [],
  )
  let stopped = false
  try {
    const owner = linkd.ownerKey()!
    const admin = async (method: string, path: string, body?: unknown) => {
      const r = await fetch(`${linkd.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
      if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`)
      return r.json() as Promise<Record<string, unknown>>
    }
    const game = (await admin('POST', '/api/v1/admin/games', {
      name: 'Bench Game',
      platform: 'android',
      ...(c.fraud ? { modules: { analytics: true, fraud: true, skan: false } } : {}),
    })) as { id: string; sdkKey: string; organizationId: string }
    if (c.fraud) {
      const rules = (await admin('GET', `/api/v1/admin/fraud/games/${game.id}/rules`)).data as {
        id: string
      }[]
      for (const r of rules)
        await admin('PATCH', `/api/v1/admin/fraud/games/${game.id}/rules/${r.id}`, { enabled: true })
    }
    const batches = makeBatches(Date.now(), playersPerBatch, ordered)
    const bodies = batches.map((b) => JSON.stringify(b))
    const headers = {
      'content-type': 'application/json',
      authorization: `Bearer ${game.sdkKey}`,
      'x-game-id': game.id,
      'x-organization-id': game.organizationId,
    }
    let blocked = 0
    let flagged = 0
    // Each batch comes from its own device or relay address (of 50,000), as behind a proxy: the
    // device-farm detector sees the players per address a real game has, not all on loopback.
    const rand = prng(3)
    const addressOf = () => {
      const n = Math.floor(rand() * 50_000)
      return `198.${18 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}` // the benchmarking range 198.18/15
    }
    const send = async (body: string) => {
      const r = await fetch(`${linkd.url}/api/v1/gaming/events`, {
        method: 'POST',
        headers: c.oneAddress ? headers : { ...headers, 'x-forwarded-for': addressOf() },
        body,
      })
      const j = (await r.json()) as { accepted?: number; blocked?: number; flagged?: number }
      // With fraud on, every event is either stored or blocked by a rule.
      if (r.status !== 202 || (j.accepted ?? 0) + (j.blocked ?? 0) !== BATCH)
        throw new Error(`ingest: ${r.status} ${JSON.stringify(j).slice(0, 500)}`)
      blocked += j.blocked ?? 0
      flagged += j.flagged ?? 0
    }
    // Warm-up with fresh batches of the same shape (not counted).
    for (const b of makeBatches(Date.now() - 1, playersPerBatch).slice(0, 5)) await send(JSON.stringify(b))
    blocked = flagged = 0
    let next = 0
    const latencies: number[] = []
    const t0 = performance.now()
    await Promise.all(
      Array.from({ length: SENDERS }, async () => {
        while (next < bodies.length) {
          const body = bodies[next++]!
          const s = performance.now()
          await send(body)
          latencies.push(performance.now() - s)
        }
      }),
    )
    const seconds = (performance.now() - t0) / 1000
    const http = (bodies.length * BATCH) / seconds
    await linkd.stop('SIGTERM')
    stopped = true
    let detectionUs: number | null = null
    if (c.fraud) {
      const db = openDatabase(`sqlite:${join(dataDir, 'linkd.db')}`)
      const d = db.sqlite
        .prepare('SELECT SUM(latency_ns) AS ns, SUM(analyzed) AS n FROM fraud_daily')
        .get() as { ns: number; n: number }
      await db.close()
      detectionUs = d.n ? d.ns / d.n / 1000 : null
    }
    return { http, latencies, blocked, flagged, detectionUs, batches }
  } finally {
    if (!stopped) await linkd.stop('SIGTERM')
    rmSync(dataDir, { recursive: true, force: true })
  }
}

const speed = (r: IngestionRun) =>
  `${fmt(r.http / 1000, 1)}k events/s; batch p50 ${fmt(median(r.latencies))} ms, p99 ${fmt(percentile(r.latencies, 99))} ms`

async function ingestionBench(c: IngestionCase): Promise<Array<[string, string]>> {
  const run = await ingestionRun(c)
  const raw = rawInsertRate(run.batches)
  return [
    [`${c.label}: HTTP, ${SENDERS} senders`, speed(run)],
    [`${c.label}: raw insert, same rows`, `${fmt(raw / 1000, 1)}k events/s`],
    [`${c.label}: ratio HTTP / raw`, `${fmt(run.http / raw, 2)}x (target >= 0.3x)`],
  ]
}

/**
 * The same batches with fraud detection off and on (all six templates enabled), twice each,
 * alternating, in the same run: the ratio of the best rates (target >= 0.8x) and the average
 * detection latency per event the daemon measured (fraud_daily; target <= 50 µs).
 */
async function fraudIngestionBench(
  playersPerBatch: number,
  label: string,
  oneAddress = false,
): Promise<Array<[string, string]>> {
  const off: IngestionRun[] = []
  const on: IngestionRun[] = []
  for (let round = 0; round < 2; round++) {
    off.push(await ingestionRun({ playersPerBatch, label, oneAddress }))
    on.push(await ingestionRun({ playersPerBatch, label, oneAddress, fraud: true }))
  }
  const best = (runs: IngestionRun[]) => runs.reduce((a, b) => (b.http > a.http ? b : a))
  const [bestOff, bestOn] = [best(off), best(on)]
  const sent = BATCHES * BATCH
  const us = on.map((r) => (r.detectionUs === null ? '-' : fmt(r.detectionUs, 1))).join(', ')
  return [
    [`${label}: fraud off`, speed(bestOff)],
    [`${label}: fraud on, six templates`, speed(bestOn)],
    [
      `${label}: what the rules decided`,
      `${fmt((100 * bestOn.blocked) / sent, 1)}% blocked, ${fmt((100 * bestOn.flagged) / sent, 1)}% flagged`,
    ],
    [`${label}: ratio on / off`, `${fmt(bestOn.http / bestOff.http, 2)}x (target >= 0.8x)`],
    [`${label}: detection latency per event`, `${us} µs (per run; target <= 50 µs)`],
  ]
}

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
  now: number
  /** Seconds spent generating the overview's aggregates. */
  loadS: number
  /** Median and p99 of 50 calls (after 5 warm-ups) of GET url, as a report line. */
  time(url: string): Promise<string>
}

/**
 * Builds the app on a fresh database, fills the overview's aggregates of `players` players over
 * `days` days (fillAggregates) and runs `bench` (the gaming-analytics bench adds its own layers).
 */
export async function withAggregates<R>(
  players: number,
  days: number,
  bench: (b: AggregatesBench) => Promise<R>,
): Promise<R> {
  const dir = mkdtempSync(join(tmpdir(), 'linkd-bench-overview-'))
  const config = loadConfig({ env: {}, flags: { dataDir: dir, logLevel: 'silent', jobs: false } })
  const db = openDatabase(config.databaseUrl)
  try {
    migrate(db, Date.now())
    const app = await buildApp({ config, db, masterKey: randomBytes(32) })
    try {
      const { orgs, keys, games } = app.linkd.services
      const org = await orgs.create('bench')
      const key = (await keys.createOwnerKey(org.id)).key
      const game = await games.create(org.id, { name: 'Overview Bench', platform: 'android' })
      const internalId = (await games.record(org.id, game.id)).id
      const now = Date.now()
      const t0 = performance.now()
      fillAggregates(db.sqlite, internalId, players, days, now)
      const loadS = (performance.now() - t0) / 1000
      const time = async (url: string) => {
        const call = async () => {
          const s = performance.now()
          const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } })
          if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`)
          return performance.now() - s
        }
        for (let i = 0; i < 5; i++) await call()
        const times: number[] = []
        for (let i = 0; i < 50; i++) times.push(await call())
        return `median ${fmt(median(times))} ms, p99 ${fmt(percentile(times, 99))} ms (target <= 50 / 150 ms)`
      }
      const game2 = { id: game.id, internalId }
      return await bench({
        app,
        sqlite: db.sqlite,
        key,
        organizationId: org.id,
        game: game2,
        now,
        loadS,
        time,
      })
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
  // BENCH_GAMING_CASES=typical,worst,worst-ordered,fraud,overview (default: all) runs a subset.
  const cases = (process.env.BENCH_GAMING_CASES ?? 'typical,worst,worst-ordered,fraud,overview').split(',')
  const ingestion: Array<[string, string]> = []
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
  if (cases.includes('fraud'))
    report('gaming ingestion with fraud detection on vs off (same batches, same run)', [
      ...(await fraudIngestionBench(10, '10 players/batch')),
      ...(await fraudIngestionBench(10, 'one address (relay)', true)),
    ])
  if (cases.includes('overview'))
    report('gaming overview latency, 1M players x 60 days (50 calls each)', await overviewBench())
}
