/**
 * Leaderboard, geography and events, from the aggregates only: the paying
 * player-days (partial index), the daily dimensions and the per-country distinct-player gaps.
 */
import type { Events, Geography, Leaderboard } from '../../../../src/contract/gaming.js'
import type { AggregatesStore } from '../storage/index.js'
import type { Scope } from './scope.js'
import { money, round } from '../../../../src/contract/numbers.js'

type Reads = Pick<
  AggregatesStore,
  'topPayers' | 'payersByLifetime' | 'revenueOfPlayers' | 'dimensionTotals' | 'distinctPerKind'
>

/** Candidates read per page, and at most, before the leaderboard sums every paying day instead. */
const CANDIDATE_PAGE = 500
const MAX_CANDIDATES = 20_000

type Payer = { playerId: string; revenueMicros: number }
const byRevenue = (a: Payer, b: Payer) =>
  b.revenueMicros - a.revenueMicros || (a.playerId < b.playerId ? -1 : a.playerId > b.playerId ? 1 : 0)

/**
 * The `limit` players with the most revenue in the range, exactly, usually without summing every
 * paying day of the range: a player's revenue in a range is at most their lifetime revenue, so
 * players are taken by lifetime revenue (most first, a page at a time) and their range revenue
 * read by key, until the next lifetime revenue is below the current last place. When that needs
 * more than MAX_CANDIDATES players (a range whose best payers are far below many lifetimes), the
 * paying days of the range are summed instead (partial index). Both give the same answer.
 */
export async function topPayersOfRange(
  aggregates: Reads,
  scope: Scope,
  limit: number,
  maxCandidates = MAX_CANDIDATES,
): Promise<Payer[]> {
  let best: Payer[] = []
  let after: Payer | null = null
  for (let scanned = 0; scanned < maxCandidates; scanned += CANDIDATE_PAGE) {
    const page = await aggregates.payersByLifetime(scope.gameId, after, CANDIDATE_PAGE)
    const cut = best[limit - 1]
    if (page.length === 0 || (cut && page[0]!.revenueMicros < cut.revenueMicros)) return best
    const revenue = await aggregates.revenueOfPlayers(
      scope.gameId,
      page.map((p) => p.playerId),
      scope.start,
      scope.end,
    )
    for (const [playerId, revenueMicros] of revenue)
      if (revenueMicros > 0) best.push({ playerId, revenueMicros })
    best = best.sort(byRevenue).slice(0, limit)
    if (page.length < CANDIDATE_PAGE) return best
    after = page[page.length - 1]!
  }
  return aggregates.topPayers(scope.gameId, scope.start, scope.end, limit)
}

/** Top players by revenue earned in the range; equal revenue ranks by player id (no shared ranks). */
export async function leaderboardReport(
  aggregates: Reads,
  scope: Scope,
  limit: number,
): Promise<Leaderboard> {
  const top = await topPayersOfRange(aggregates, scope, limit)
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
 * Per event type: the named types, and each custom name as its own row (`custom: true`, from the
 * 'custom_event' dimension). Events of the range, distinct players who sent it in the range, share
 * of all events; sorted by count. A custom name with events whose players are not counted per name
 * ('custom_event_uncounted') in the range has uniquePlayers null.
 */
export async function eventsReport(aggregates: Reads, scope: Scope): Promise<Events> {
  const [rows, counted, uncounted, players, customPlayers] = await Promise.all([
    aggregates.dimensionTotals(scope.gameId, 'event_type', scope.start, scope.end),
    aggregates.dimensionTotals(scope.gameId, 'custom_event', scope.start, scope.end),
    aggregates.dimensionTotals(scope.gameId, 'custom_event_uncounted', scope.start, scope.end),
    aggregates.distinctPerKind(scope.gameId, 'type:', scope.start, scope.end),
    aggregates.distinctPerKind(scope.gameId, 'custom:', scope.start, scope.end),
  ])
  // The 'custom' event_type row lumps every custom name: replaced by the per-name rows.
  const named = rows.filter((row) => row.value !== 'custom')
  const total = rows.reduce((sum, row) => sum + row.events, 0)
  const share = (events: number) => (total ? round((100 * events) / total, 2) : 0)
  const custom = new Map<string, { count: number; uncounted: boolean }>()
  for (const row of counted) custom.set(row.value, { count: row.events, uncounted: false })
  for (const row of uncounted.filter((r) => r.events > 0)) {
    const c = custom.get(row.value)
    custom.set(row.value, { count: (c?.count ?? 0) + row.events, uncounted: true })
  }
  const data = [
    ...named
      .filter((row) => row.events > 0)
      .map((row) => ({
        eventType: row.value,
        custom: false,
        count: row.events,
        uniquePlayers: players.get(row.value) ?? 0,
        percentage: share(row.events),
      })),
    ...[...custom]
      .filter(([, c]) => c.count > 0)
      .map(([name, c]) => ({
        eventType: name,
        custom: true,
        count: c.count,
        uniquePlayers: c.uncounted ? null : (customPlayers.get(name) ?? 0),
        percentage: share(c.count),
      })),
  ].sort(
    (a, b) =>
      b.count - a.count || a.eventType.localeCompare(b.eventType) || Number(a.custom) - Number(b.custom),
  )
  return { data, totals: { count: total }, range: scope.range }
}
