/**
 * `npm run bench gaming-analytics`: the latency of every gaming analytics endpoint on
 * 1M players x 60 days, and the export's streaming rate and memory. The overview's data set
 * (withAggregates in gaming.ts: aggregates and profiles with platform, country and attribution)
 * is extended here with the layers the other endpoints read: the daily dimensions (countries,
 * event types), the per-country and per-type distinct-player gaps, the paying player-days (the
 * leaderboard reads only their partial index, so the non-paying player-days are not generated)
 * and their sums as the profiles' lifetime revenue, and the money layers (fillMoney in
 * gaming-money.ts). BENCH_GAMING_PLAYERS=100000 for a smaller run.
 */
import { get, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fmt, report } from './lib.js'
import { prng } from '../support/prng.js'
import { COUNTRIES, withAggregates, type AggregatesBench } from './gaming.js'
import { dailyDimsInsert, fillMoney } from './gaming-money.js'

const DAY = 86_400_000
const TYPES = [
  'session_start',
  'session_end',
  'level_start',
  'level_complete',
  'purchase',
  'ad_watched',
  'custom',
]

/** The endpoints timed on the default range, as `[label, path and query]`. */
export const ENDPOINTS: Array<[string, string]> = [
  ['overview', 'overview'],
  ['retention (day cohorts)', 'retention'],
  ['retention (week cohorts)', 'retention?granularity=week'],
  ['leaderboard (top 100)', 'leaderboard?limit=100'],
  ['geography', 'geography'],
  ['events', 'events'],
  ['export events (CSV)', 'export?type=events'],
  ...(['day', 'week', 'month', 'platform', 'source'] as const).map((g): [string, string] => [
    `revenue by ${g}`,
    `revenue?groupBy=${g}`,
  ]),
  ...(['affiliate', 'campaign', 'source', 'medium'] as const).map((g): [string, string] => [
    `attribution by ${g}`,
    `attribution?groupBy=${g}`,
  ]),
  ['segments', 'segments'],
  ['players (default: revenue desc)', 'players'],
  ['players sort=sessions', 'players?sort=sessions'],
  ['players sort=lastActive', 'players?sort=lastActive'],
  ['players prefix search', 'players?search=player-4242'],
  ['players platform=ios', 'players?platform=ios'],
  ['players segment=whale', 'players?segment=whale'],
  ['players page 500', 'players?page=500'],
  ['player profile', 'players/player-4242'],
]

function fillPartA(b: AggregatesBench, players: number, days: number): void {
  const rand = prng(12)
  const today = Math.floor(b.now / DAY)
  const first = today - days + 1
  const gameId = b.game.internalId
  const dim = dailyDimsInsert(b)
  const gap = b.sqlite.prepare(
    'INSERT INTO game_day_gaps (game_id, kind, day, prev_day, players) VALUES (?, ?, ?, ?, ?)',
  )
  const payingDay = b.sqlite.prepare(
    `INSERT INTO game_player_days (game_id, player_id, day, install_day, events, revenue_micros, event_types)
     VALUES (?, ?, ?, ?, 5, ?, 16)`,
  )
  const active = Math.floor(players * 0.3)
  b.sqlite.transaction(() => {
    for (let d = 0; d < days; d++) {
      const day = first + d
      for (const [dimName, values] of [
        ['country', COUNTRIES],
        ['event_type', TYPES],
      ] as const)
        for (const value of values) {
          const share = Math.floor(active / values.length)
          dim.run(gameId, day, dimName, value, share, 0, 0, share * 8, 0, share * 20_000, 0, 0, share * 2)
          gap.run(
            gameId,
            `${dimName === 'country' ? 'country' : 'type'}:${value}`,
            day,
            -1,
            Math.floor(share / 10),
          )
          for (let p = Math.max(first, day - 59); p < day; p++)
            gap.run(
              gameId,
              `${dimName === 'country' ? 'country' : 'type'}:${value}`,
              day,
              p,
              Math.floor(rand() * 500),
            )
        }
    }
  })()
  // Paying player-days: 3 % of the active players a day, heavy-tailed amounts, repeat payers;
  // the profiles' lifetime revenue is their sum (the leaderboard's candidates read it).
  const lifetime = new Map<number, number>()
  const setLifetime = b.sqlite.prepare(
    'UPDATE game_players SET revenue_total_micros = ?, revenue_iap_micros = ? WHERE game_id = ? AND player_id = ?',
  )
  b.sqlite.transaction(() => {
    for (let d = 0; d < days; d++) {
      const seen = new Set<number>()
      for (let i = 0; i < Math.floor(active * 0.03); i++) {
        const player = Math.floor(players * rand() ** 3)
        if (seen.has(player)) continue
        seen.add(player)
        const micros = Math.floor(990_000 / (rand() + 0.01))
        payingDay.run(gameId, `player-${player}`, first + d, first + (player % days), micros)
        lifetime.set(player, (lifetime.get(player) ?? 0) + micros)
      }
    }
    for (const [player, micros] of lifetime) setLifetime.run(micros, micros, gameId, `player-${player}`)
  })()
}

/** The body of GET url as a stream, over inject (light-my-request) or a real loopback socket. */
async function openBody(b: AggregatesBench, url: string, via: 'inject' | 'loopback') {
  const headers = { authorization: `Bearer ${b.key}` }
  if (via === 'inject') {
    const res = await b.app.inject({ method: 'GET', url, headers, payloadAsStream: true })
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode}`)
    return res.stream() as AsyncIterable<Buffer>
  }
  const address = b.app.server.listening
    ? `http://127.0.0.1:${(b.app.server.address() as AddressInfo).port}`
    : await b.app.listen({ port: 0, host: '127.0.0.1' })
  return new Promise<IncomingMessage>((resolve, reject) =>
    get(`${address}${url}`, { headers }, (res) =>
      res.statusCode === 200 ? resolve(res) : reject(new Error(`${url}: ${res.statusCode}`)),
    ).on('error', reject),
  )
}

/**
 * GET export?type=players&format=csv of `rows` players, the body read as a stream and dropped:
 * rows/s and the process's RSS growth (server and client: one process) while streaming.
 */
async function exportRate(
  b: AggregatesBench,
  rows: number,
  via: 'inject' | 'loopback',
): Promise<Array<[string, string]>> {
  global.gc?.()
  const before = process.memoryUsage()
  let [peak, peakHeap] = [before.rss, before.heapTotal]
  let bytes = 0
  let lines = 0
  const t0 = performance.now()
  const url = `/api/v1/analytics/games/${b.game.id}/export?type=players&format=csv&limit=${rows}`
  for await (const chunk of await openBody(b, url, via)) {
    bytes += chunk.length
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++
    const now = process.memoryUsage()
    ;[peak, peakHeap] = [Math.max(peak, now.rss), Math.max(peakHeap, now.heapTotal)]
  }
  const seconds = (performance.now() - t0) / 1000
  const exported = lines - 1 // the header line
  if (exported !== rows) throw new Error(`export players: ${exported} rows, expected ${rows}`)
  const how = via === 'inject' ? 'HTTP inject' : 'HTTP on loopback'
  return [
    [
      `export ${fmt(rows / 1e6, 1)}M players as CSV, ${how}`,
      `${fmt(rows / seconds / 1000, 0)}k rows/s, ${fmt(bytes / 1e6, 0)} MB in ${fmt(seconds, 1)} s (target >= 100k rows/s)`,
    ],
    [
      `export RSS growth (peak - start), ${how}`,
      `${fmt((peak - before.rss) / 1e6, 1)} MB; V8 heap total +${fmt((peakHeap - before.heapTotal) / 1e6, 1)} MB (target <= 50 MB)`,
    ],
  ]
}

export async function gamingAnalyticsBench(): Promise<void> {
  const players = Number(process.env.BENCH_GAMING_PLAYERS ?? 1_000_000)
  const days = 60
  const rows = await withAggregates(players, days, async (b) => {
    const t0 = performance.now()
    fillPartA(b, players, days)
    fillMoney(b, players, days)
    const out: Array<[string, string]> = [
      [
        `load ${fmt(players / 1e6, 1)}M players x ${days} days (overview + dims, gaps, paying days, money)`,
        `${fmt(b.loadS + (performance.now() - t0) / 1000, 1)} s`,
      ],
    ]
    for (const [label, path] of ENDPOINTS)
      out.push([label, await b.time(`/api/v1/analytics/games/${b.game.id}/${path}`)])
    // Both: inject writes each chunk to a null socket that takes one chunk per event-loop turn
    // while the reply's backpressure follows the client's reads only, so the inject run holds
    // most of the body in that socket's queue (its RSS growth is the client's, not the daemon's).
    out.push(...(await exportRate(b, Math.min(players, 1_000_000), 'loopback')))
    out.push(...(await exportRate(b, Math.min(players, 1_000_000), 'inject')))
    return out
  })
  report('gaming analytics latency, 1M players x 60 days, default range (50 calls each)', rows)
}
