import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { GameParams } from '../../../src/contract/games.js'
import { Overview, OverviewQuery } from '../../../src/contract/gaming.js'
import { principalOf } from '../../http/auth.js'
import type { GamingAnalyticsService } from './service.js'
import {
  AttributionQuery,
  AttributionReport,
  PlayerParams,
  PlayerProfile,
  PlayerQuery,
  PlayersPage,
  PlayersQuery,
  RevenueQuery,
  RevenueReport,
  SegmentsReport,
} from '../../../src/contract/gaming-revenue.js'

const RANGE =
  "startDate and endDate: UTC days, both included; default the last 30 days up to today. Money in the game's reporting currency (`currency`)."

export function gamingAnalyticsRoutes(deps: { analytics: GamingAnalyticsService }) {
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
    app.get(
      '/api/v1/analytics/games/:gameId/overview',
      {
        config: { auth: 'analytics:read' },
        schema: {
          tags: ['Gaming analytics'],
          summary: 'Overview of a game: DAU, MAU, revenue, ARPU, ARPPU, session length, D1/D7/D30',
          description:
            'startDate and endDate: UTC days, both included; default the last 30 days up to today. dau: players active on endDate; mau: distinct players of the 30 days ending on endDate; arpu / arppu: revenue over the distinct active / paying players of the range; avgSessionSeconds over the sessions started in the range; retention dN: percent of the install cohorts of the range (those at least N days old) active exactly N days after install, null when no cohort qualifies. Revenue is in the reporting currency the SDK sends (amounts are summed as sent). Read from the daily aggregates only.',
          params: GameParams,
          querystring: OverviewQuery,
          response: { 200: Overview },
        },
      },
      async (req) => deps.analytics.overview(principalOf(req).organizationId, req.params.gameId, req.query),
    )

    // Part B of issue 12: revenue, attribution, segments, players.
    const read = { auth: 'analytics:read' } as const
    const tags = ['Gaming analytics']
    app.get(
      '/api/v1/analytics/games/:gameId/revenue',
      {
        config: read,
        schema: {
          tags,
          summary: 'Revenue per day, ISO week, month, platform or source, with totals',
          description: `${RANGE} groupBy (default day): day, week and month list every period of the range (clipped to it); platform and source list the values with revenue. payingUsers: distinct players with a paid event in the group over the range; arppu = total / payingUsers.`,
          params: GameParams,
          querystring: RevenueQuery,
          response: { 200: RevenueReport },
        },
      },
      async (req) => deps.analytics.revenue(principalOf(req).organizationId, req.params.gameId, req.query),
    )
    app.get(
      '/api/v1/analytics/games/:gameId/attribution',
      {
        config: read,
        schema: {
          tags,
          summary: 'Installs, conversions, revenue, cost, commission, CPA and ROAS per attribution value',
          description: `${RANGE} groupBy (default source): the first-touch affiliate, campaign, source or medium of the players. installs: players installed in the range; conversions: those of them who have paid; revenue and commission: of the range; cost: data.cost of app_install events of the range; avgCpa = cost / conversions, avgRoas = revenue / cost (null when the divisor is 0).`,
          params: GameParams,
          querystring: AttributionQuery,
          response: { 200: AttributionReport },
        },
      },
      async (req) =>
        deps.analytics.attribution(principalOf(req).organizationId, req.params.gameId, req.query),
    )
    app.get(
      '/api/v1/analytics/games/:gameId/segments',
      {
        config: read,
        schema: {
          tags,
          summary: 'Whale, dolphin, minnow and free players by lifetime revenue',
          description:
            "Every current player of the game by lifetime revenue, with the game's thresholds (whale >= whale, dolphin >= dolphin, minnow > 0, free = 0).",
          params: GameParams,
          response: { 200: SegmentsReport },
        },
      },
      async (req) => deps.analytics.segments(principalOf(req).organizationId, req.params.gameId),
    )
    app.get(
      '/api/v1/analytics/games/:gameId/players',
      {
        config: read,
        schema: {
          tags,
          summary: 'Players explorer: prefix search, filters and sorts, paginated',
          description:
            'search: player id prefix; filters platform, country, segment, minRevenue (lifetime, reporting currency), lastActiveFrom/lastActiveTo (UTC days, included); sort revenue (default), sessions or lastActive, order desc (default) or asc; ties by player id.',
          params: GameParams,
          querystring: PlayersQuery,
          response: { 200: PlayersPage },
        },
      },
      async (req) => deps.analytics.players(principalOf(req).organizationId, req.params.gameId, req.query),
    )
    app.get(
      '/api/v1/analytics/games/:gameId/players/:playerId',
      {
        config: read,
        schema: {
          tags,
          summary: "A player's profile and newest events",
          description:
            'First-touch profile (first seen, platform, country, device, attribution), sessions, lifetime revenue by type; events: the newest raw events first (page, limit), within the raw retention. 404 for an unknown player.',
          params: PlayerParams,
          querystring: PlayerQuery,
          response: { 200: PlayerProfile },
        },
      },
      async (req) =>
        deps.analytics.player(
          principalOf(req).organizationId,
          req.params.gameId,
          req.params.playerId,
          req.query,
        ),
    )
  }
}
