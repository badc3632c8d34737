/**
 * `npm run bench gaming-analytics` (issue 12): the latency of every gaming analytics endpoint on
 * 1M players x 60 days, and the export's streaming rate and memory. The overview's data set
 * (withAggregates in gaming.ts) is extended here with the layers the other endpoints read: the
 * daily dimensions (countries, event types), the per-country and per-type distinct-player gaps,
 * and the paying player-days (the leaderboard reads only their partial index, so the non-paying
 * player-days are not generated). BENCH_GAMING_PLAYERS=100000 for a smaller run.
 */
import { Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { Readable } from 'node:stream'
import { prng } from '../support/prng.js'
import { fmt, report } from './lib.js'
import { withAggregates, type AggregatesBench } from './gaming.js'

const DAY = 86_400_000
const COUNTRIES = Array.from({ length: 30 }, (_, i) =>
  String.fromCharCode(65 + (i % 26), 65 + Math.floor(i / 26) + 10),
)
const TYPES = [
  'session_start',
  'session_end',
  'level_start',
  'level_complete',
  'purchase',
  'ad_watched',
  'custom',
]

/**
 * The endpoints timed on the default range: a table the merger extends with the other branch's
 * (revenue, attribution, segments, players, …) as `[label, path and query]`.
 */
export const ENDPOINTS: Array<[string, string]> = [
  ['overview', 'overview'],
  ['retention (day cohorts)', 'retention'],
  ['retention (week cohorts)', 'retention?granularity=week'],
  ['leaderboard (top 100)', 'leaderboard?limit=100'],
  ['geography', 'geography'],
  ['events', 'events'],
  ['export events (CSV)', 'export?type=events'],
]

function fillPartA(b: AggregatesBench, players: number, days: number): void {
  const rand = prng(12)
  const today = Math.floor(b.now / DAY)
  const first = today - days + 1
  const gameId = b.game.internalId
  const dim = b.sqlite.prepare(
    `INSERT INTO game_daily_dims (game_id, day, dim, value, players, new_players, paying_players, events,
       transactions, revenue_iap_micros, revenue_ad_micros, revenue_subscription_micros, sessions)
     VALUES (?, ?, ?, ?, ?, 0, 0, ?, 0, ?, 0, 0, ?)`,
  )
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
          dim.run(gameId, day, dimName, value, share, share * 8, share * 20_000, share * 2)
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

/** Exports 1M player-like rows (a keyset-paged source over game_players) as CSV to a null sink. */
async function exportRate(b: AggregatesBench, rows: number): Promise<Array<[string, string]>> {
  const page = b.sqlite.prepare(
    `SELECT player_id AS playerId, session_count AS sessions, revenue_total_micros AS revenue, platform, country,
       last_active_at AS lastActiveAt FROM game_players WHERE game_id = ? AND player_id > ? ORDER BY player_id LIMIT 1000`,
  )
  const analytics = b.app.linkd.services.gamingAnalytics
  // Until the players type exists (the other branch), the same shape stands in for it.
  analytics.exports.register('bench-players', {
    columns: ['playerId', 'sessions', 'revenue', 'platform', 'country', 'lastActiveAt'],
    async open() {
      return (async function* () {
        let after = ''
        for (;;) {
          const batch = page.all(b.game.internalId, after) as Array<Record<string, string | number>>
          if (batch.length === 0) return
          yield* batch
          after = String(batch[batch.length - 1]!.playerId)
        }
      })()
    },
  })
  global.gc?.()
  const rssBefore = process.memoryUsage().rss
  let peak = rssBefore
  let bytes = 0
  const t0 = performance.now()
  const file = await analytics.export(b.organizationId, b.game.id, {
    type: 'bench-players' as 'events',
    format: 'csv',
    limit: rows,
  })
  await pipeline(
    Readable.from(file.body),
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        bytes += chunk.length
        peak = Math.max(peak, process.memoryUsage().rss)
        done()
      },
    }),
  )
  const seconds = (performance.now() - t0) / 1000
  return [
    [
      `export ${fmt(rows / 1e6, 1)}M player rows as CSV (service + encoder)`,
      `${fmt(rows / seconds / 1000, 0)}k rows/s, ${fmt(bytes / 1e6, 0)} MB (target >= 100k rows/s)`,
    ],
    ['export RSS growth (peak - start)', `${fmt((peak - rssBefore) / 1e6, 1)} MB (target <= 50 MB)`],
  ]
}

export async function gamingAnalyticsBench(): Promise<void> {
  const players = Number(process.env.BENCH_GAMING_PLAYERS ?? 1_000_000)
  const days = 60
  const rows = await withAggregates(players, days, async (b) => {
    const t0 = performance.now()
    fillPartA(b, players, days)
    const out: Array<[string, string]> = [
      [
        `load ${fmt(players / 1e6, 1)}M players x ${days} days (overview + dims, gaps, paying days)`,
        `${fmt(b.loadS + (performance.now() - t0) / 1000, 1)} s`,
      ],
    ]
    for (const [label, path] of ENDPOINTS)
      out.push([`${label}, default range`, await b.time(`/api/v1/analytics/games/${b.game.id}/${path}`)])
    out.push(...(await exportRate(b, Math.min(players, 1_000_000))))
    return out
  })
  report('gaming analytics latency, 1M players x 60 days (50 calls each)', rows)
}
