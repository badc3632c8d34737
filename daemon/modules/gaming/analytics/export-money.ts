/**
 * The export row sources of the money reports: revenue and attribution (one row per group, then
 * a TOTAL row), segments (one row per segment) and players (every current player, explorer
 * columns, by player id in keyset pages: constant memory for a million players).
 */
import type {
  AttributionQuery,
  AttributionReport,
  RevenueQuery,
  RevenueReport,
  SegmentsReport,
} from '../../../../src/contract/gaming-revenue.js'
import { ATTRIBUTION_GROUPS, REVENUE_GROUPS } from '../../../../src/contract/limits.js'
import type { ExportQuery } from '../../../../src/contract/gaming.js'
import { AppError } from '../../../http/errors.js'
import type { GameService } from '../games/index.js'
import type { PlayersStore } from '../storage/index.js'
import { rowsOf, type ExportRegistry, type FlatRow } from './export.js'
import { presentPlayer } from './players.js'

interface MoneyReports {
  revenue(organizationId: string, slug: string, q: RevenueQuery): Promise<RevenueReport>
  attribution(organizationId: string, slug: string, q: AttributionQuery): Promise<AttributionReport>
  segments(organizationId: string, slug: string): Promise<SegmentsReport>
}

/** The groupBy of an export, checked against what the report groups by. */
function groupOf<G extends string>(query: ExportQuery, allowed: readonly G[], fallback: G): G {
  const g = query.groupBy ?? fallback
  if (!(allowed as readonly string[]).includes(g))
    throw new AppError('ValidationError', `groupBy ${g} does not apply to a ${query.type} export`, [
      { field: 'groupBy', message: `for ${query.type}: one of ${allowed.join(', ')}` },
    ])
  return g as G
}

const withCurrency = (rows: FlatRow[], currency: string) => rows.map((r) => ({ ...r, currency }))

export function registerMoneySources(
  registry: ExportRegistry,
  reports: MoneyReports,
  deps: { games: GameService; players: PlayersStore },
): void {
  const range = (q: ExportQuery) => ({ startDate: q.startDate, endDate: q.endDate })
  registry.register('revenue', {
    columns: [
      'group',
      'total',
      'iap',
      'ad',
      'subscription',
      'transactions',
      'payingUsers',
      'arppu',
      'currency',
    ],
    async open({ organizationId, slug, query }) {
      const groupBy = groupOf(query, REVENUE_GROUPS, 'day')
      const r = await reports.revenue(organizationId, slug, { ...range(query), groupBy })
      return rowsOf(withCurrency([...r.data, { group: 'TOTAL', ...r.totals }], r.currency))
    },
  })
  registry.register('attribution', {
    // By link, each row names the link's short URL too (empty for a deleted link), as the report.
    columns: (query) => [
      'group',
      ...(query.groupBy === 'link' ? ['shortUrl'] : []),
      'installs',
      'conversions',
      'revenue',
      'cost',
      'commission',
      'avgCpa',
      'avgRoas',
      'currency',
    ],
    async open({ organizationId, slug, query }) {
      const groupBy = groupOf(query, ATTRIBUTION_GROUPS, 'source')
      const r = await reports.attribution(organizationId, slug, { ...range(query), groupBy })
      return rowsOf(withCurrency([...r.data, { group: 'TOTAL', ...r.totals }], r.currency))
    },
  })
  registry.register('segments', {
    columns: ['segment', 'players', 'share', 'revenue', 'revenueShare', 'avgRevenue', 'currency'],
    async open({ organizationId, slug }) {
      const r = await reports.segments(organizationId, slug)
      return rowsOf(withCurrency(r.data, r.currency))
    },
  })
  registry.register('players', {
    columns: [
      'playerId',
      'sessions',
      'revenue',
      'segment',
      'lastActiveAt',
      'platform',
      'country',
      'currency',
    ],
    async open({ organizationId, slug }) {
      const game = await deps.games.record(organizationId, slug)
      return (async function* () {
        for await (const row of deps.players.stream(game.id, {}))
          yield { ...presentPlayer(game, row), currency: game.reportingCurrency } as FlatRow
      })()
    },
  })
}
