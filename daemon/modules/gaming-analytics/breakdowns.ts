/**
 * Leaderboard, geography and events (issue 12 items 6-8), from the aggregates only: the paying
 * player-days (partial index), the daily dimensions and the per-country distinct-player gaps.
 */
import type { Events, Geography, Leaderboard } from '../../../src/contract/gaming.js'
import type { GamedataAggregates } from '../gamedata/service.js'
import { money, round, type Scope } from './scope.js'

type Reads = Pick<GamedataAggregates, 'topPayers' | 'dimensionTotals' | 'distinctPerKind'>

/** Top players by revenue earned in the range; equal revenue ranks by player id (no shared ranks). */
export async function leaderboardReport(
  aggregates: Reads,
  scope: Scope,
  limit: number,
): Promise<Leaderboard> {
  const top = await aggregates.topPayers(scope.gameId, scope.start, scope.end, limit)
  return {
    data: top.map((p, index) => ({ rank: index + 1, playerId: p.playerId, revenue: money(p.revenueMicros) })),
    range: scope.range,
  }
}

/**
 * Per profile country: distinct players active in the range, sessions started and revenue earned
 * in it; sorted by players (most first), then country. Unknown country: null, sorted with the rest.
 */
export async function geographyReport(aggregates: Reads, scope: Scope): Promise<Geography> {
  const [totals, players] = await Promise.all([
    aggregates.dimensionTotals(scope.gameId, 'country', scope.start, scope.end),
    aggregates.distinctPerKind(scope.gameId, 'country:', scope.start, scope.end),
  ])
  const data = totals
    .map((row) => {
      const distinct = players.get(row.value) ?? 0
      const revenue = money(row.revenueMicros)
      return {
        country: row.value === '' ? null : row.value,
        players: distinct,
        sessions: row.sessions,
        revenue,
        revenuePerPlayer: distinct ? round(revenue / distinct, 6) : 0,
      }
    })
    .filter((row) => row.players > 0 || row.sessions > 0 || row.revenue !== 0)
    .sort((a, b) => b.players - a.players || (a.country ?? '').localeCompare(b.country ?? ''))
  return { data, range: scope.range }
}

/**
 * Per event type (named types, and 'custom' for every custom name): events of the range, distinct
 * players who sent it in the range, share of all events; sorted by count.
 */
export async function eventsReport(aggregates: Reads, scope: Scope): Promise<Events> {
  const [rows, players] = await Promise.all([
    aggregates.dimensionTotals(scope.gameId, 'event_type', scope.start, scope.end),
    aggregates.distinctPerKind(scope.gameId, 'type:', scope.start, scope.end),
  ])
  const total = rows.reduce((sum, row) => sum + row.events, 0)
  const data = rows
    .filter((row) => row.events > 0)
    .map((row) => ({
      eventType: row.value,
      count: row.events,
      uniquePlayers: players.get(row.value) ?? 0,
      percentage: total ? round((100 * row.events) / total, 2) : 0,
    }))
    .sort((a, b) => b.count - a.count || a.eventType.localeCompare(b.eventType))
  return { data, totals: { count: total }, range: scope.range }
}
