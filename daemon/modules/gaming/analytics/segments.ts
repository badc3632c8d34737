/**
 * GET /analytics/games/:gameId/segments: the game's current players by lifetime revenue (whale >=
 * the whale threshold, dolphin >= the dolphin threshold, minnow > 0, free = 0; thresholds are game
 * settings read at query time). Four range counts on the (game_id, revenue_total_micros) index.
 */
import type { Segment, SegmentRow, SegmentsReport } from '../../../../src/contract/gaming-revenue.js'
import type { GameRecord } from '../games/index.js'
import type { PlayersStore } from '../storage/index.js'
import { percentOf, ratio } from './money.js'
import { money } from '../../../../src/contract/numbers.js'

/** [from, below) of each segment in micro-units (below null: no upper bound): free is [0, 1). */
export function segmentBounds(game: GameRecord): Record<Segment, [number, number | null]> {
  const { whaleMicros, dolphinMicros } = game.segments
  return {
    whale: [whaleMicros, null],
    dolphin: [dolphinMicros, whaleMicros],
    minnow: [1, dolphinMicros],
    free: [0, 1],
  }
}

export function segmentOf(game: GameRecord, revenueMicros: number): Segment {
  if (revenueMicros >= game.segments.whaleMicros) return 'whale'
  if (revenueMicros >= game.segments.dolphinMicros) return 'dolphin'
  return revenueMicros > 0 ? 'minnow' : 'free'
}

export async function segmentsReport(players: PlayersStore, game: GameRecord): Promise<SegmentsReport> {
  const bounds = segmentBounds(game)
  const paying = (['whale', 'dolphin', 'minnow'] as const).map((s) =>
    players.revenueBand(game.id, ...bounds[s]),
  )
  // Free players: all profiles minus the paying ones (counting them would walk most of the index).
  const [allPlayers, ...paid] = await Promise.all([players.total(game.id), ...paying])
  const free = allPlayers - paid.reduce((n, b) => n + b.players, 0)
  const bands = [...paid, { players: free, revenueMicros: 0 }]
  const segments: Segment[] = ['whale', 'dolphin', 'minnow', 'free']
  const allRevenue = bands.reduce((n, b) => n + b.revenueMicros, 0)
  const data: SegmentRow[] = segments.map((segment, i) => {
    const b = bands[i]!
    return {
      segment,
      players: b.players,
      share: percentOf(b.players, allPlayers),
      revenue: money(b.revenueMicros),
      revenueShare: percentOf(b.revenueMicros, allRevenue),
      avgRevenue: ratio(money(b.revenueMicros), b.players, 0),
    }
  })
  return {
    data,
    thresholds: { whale: money(game.segments.whaleMicros), dolphin: money(game.segments.dolphinMicros) },
    currency: game.reportingCurrency,
  }
}
