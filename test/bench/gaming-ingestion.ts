/**
 * Gaming ingestion benches: events/s over HTTP against the raw insert rate of the same rows, and
 * with fraud detection on against off (`npm run bench gaming`; part of the gaming bench).
 */
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { migrate } from '../../daemon/db/migrate.js'
import { openDatabase } from '../../daemon/db/open.js'
import { startLinkd } from '../support/processes.js'
import { prng } from '../support/prng.js'
import { fmt, median, percentile } from './lib.js'

export const BATCH = 1000
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
export function makeBatches(
  now: number,
  playersPerBatch: number,
  ordered = false,
  /** Players drawn from (default 200,000) and events a batch (default 1,000). */
  shape: { pool?: number; size?: number } = {},
) {
  const pool = shape.pool ?? 200_000
  const size = shape.size ?? BATCH
  const rand = prng(7)
  // The same number of events whatever the batch size.
  const count = Math.round((BATCHES * BATCH) / size)
  const batches: Array<{ batch_id: string; batch_timestamp: string; events: Record<string, unknown>[] }> = []
  for (let b = 0; b < count; b++) {
    const events: Record<string, unknown>[] = []
    const group = Array.from({ length: playersPerBatch }, () => `player-${Math.floor(rand() * pool)}`)
    for (let i = 0; i < size; i++) {
      const player = playersPerBatch ? group[i % playersPerBatch]! : `player-${Math.floor(rand() * pool)}`
      const purchase = rand() < 0.02
      events.push({
        event_id: randomUUID(),
        event_type: purchase ? 'purchase' : TYPES[i % TYPES.length],
        timestamp: new Date(
          ordered
            ? now - 3_600_000 + Math.floor(((b + rand()) * 3_600_000) / count)
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
async function rawInsertRate(batches: ReturnType<typeof makeBatches>): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'linkd-bench-gaming-raw-'))
  const db = openDatabase(`sqlite:${join(dir, 'raw.db')}`)
  try {
    await migrate(db, Date.now())
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
    return batches.reduce((n, b) => n + b.events.length, 0) / s
  } finally {
    void db.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

export interface IngestionCase {
  playersPerBatch: number
  label: string
  /** Event times in send order (see makeBatches). */
  ordered?: boolean
  /** Players drawn from and events a batch (see makeBatches). */
  shape?: { pool?: number; size?: number }
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
  // The bench sends more than 1,000 batches a minute to one game (from one address in a case).
  LINKD_INGEST_RATE_LIMIT_PER_CLIENT: '1000000000',
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
    const batches = makeBatches(Date.now(), playersPerBatch, ordered, c.shape)
    const bodies = batches.map((b) => JSON.stringify(b))
    const size = batches[0]!.events.length
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
      if (r.status !== 202 || (j.accepted ?? 0) + (j.blocked ?? 0) !== size)
        throw new Error(`ingest: ${r.status} ${JSON.stringify(j).slice(0, 500)}`)
      blocked += j.blocked ?? 0
      flagged += j.flagged ?? 0
    }
    // Warm-up with fresh batches of the same shape (not counted).
    for (const b of makeBatches(Date.now() - 1, playersPerBatch, false, c.shape).slice(0, 5))
      await send(JSON.stringify(b))
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
    const http = (bodies.length * size) / seconds
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

export async function ingestionBench(c: IngestionCase): Promise<Array<[string, string]>> {
  const run = await ingestionRun(c)
  const raw = await rawInsertRate(run.batches)
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
export async function fraudIngestionBench(
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

/**
 * SDK-shaped traffic under the default limits: 4 senders, each from its own client address (X-
 * Forwarded-For, trusted), send 100-event batches of one player each as fast as they are answered
 * for `seconds`: how many batches were accepted and how many refused, by which window (the spec's
 * 1,000 a minute per game and address; the game-wide ceiling of 60,000 a minute).
 */
export async function sdkShapedBench(seconds = Number(process.env.BENCH_SDK_SECONDS ?? 10)) {
  const dataDir = mkdtempSync(join(tmpdir(), 'linkd-bench-gaming-sdk-'))
  const linkd = await startLinkd(dataDir, { LINKD_LOG_LEVEL: 'warn', LINKD_TRUST_PROXY: 'true' })
  try {
    const r = await fetch(`${linkd.url}/api/v1/admin/games`, {
      method: 'POST',
      headers: { authorization: `Bearer ${linkd.ownerKey()!}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'SDK Bench Game', platform: 'android' }),
    })
    const game = (await r.json()) as { id: string; sdkKey: string; organizationId: string }
    const headers = {
      'content-type': 'application/json',
      authorization: `Bearer ${game.sdkKey}`,
      'x-game-id': game.id,
      'x-organization-id': game.organizationId,
    }
    // Ids from a counter (UUID-shaped): generating them costs the bench process next to nothing.
    let n = 0
    const id = () => `00000000-0000-4000-8000-${(n++).toString(16).padStart(12, '0')}`
    const body = (player: number) => {
      const now = Date.now()
      const events = Array.from({ length: 100 }, (_, i) => ({
        event_id: id(),
        event_type: i === 0 ? 'session_start' : TYPES[i % TYPES.length],
        timestamp: new Date(now - (100 - i) * 1000).toISOString(),
        player_id: `sdk-player-${player}`,
        session_id: `sdk-player-${player}-s`,
        data: { level: i % 50 },
      }))
      return JSON.stringify({ batch_id: id(), batch_timestamp: new Date(now).toISOString(), events })
    }
    const counts = { accepted: 0, perAddress: 0, ceiling: 0, other: 0 }
    const end = performance.now() + seconds * 1000
    await Promise.all(
      Array.from({ length: SENDERS }, async (_, sender) => {
        for (let player = sender; performance.now() < end; player += SENDERS) {
          const res = await fetch(`${linkd.url}/api/v1/gaming/events`, {
            method: 'POST',
            headers: { ...headers, 'x-forwarded-for': `198.18.0.${sender + 1}` },
            body: body(player),
          })
          const text = await res.text()
          if (res.status === 202) counts.accepted++
          else if (res.status === 429 && text.includes('per game and client address')) counts.perAddress++
          else if (res.status === 429 && text.includes('game-wide ceiling')) counts.ceiling++
          else counts.other++
        }
      }),
    )
    return [
      [
        `SDK-shaped: ${SENDERS} addresses x 100-event batches of one player, ${seconds} s, default limits`,
        `${counts.accepted} accepted (${fmt((counts.accepted * 100) / seconds / 1000, 1)}k events/s), ` +
          `${counts.perAddress} refused per game and address, ${counts.ceiling} by the game-wide ceiling, ` +
          `${counts.other} other`,
      ],
    ] as Array<[string, string]>
  } finally {
    await linkd.stop('SIGTERM')
    rmSync(dataDir, { recursive: true, force: true })
  }
}
