import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { GameParams } from '../../../../src/contract/games.js'
import { principalOf } from '../../../http/auth.js'
import type { GamingAnalyticsService } from './api.js'
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
} from '../../../../src/contract/gaming-revenue.js'
import { RANGE, off, read } from './route-common.js'

/** A game's revenue, attribution, segments and players. */
export function revenueRoutes(deps: { analytics: GamingAnalyticsService }) {
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>()

    const tags = ['Gaming analytics']
    app.get(
      '/api/v1/analytics/games/:gameId/revenue',
      {
        ...read,
        schema: {
          tags,
          summary: 'Revenue per day, ISO week, month, platform or source, with totals',
          description: `${RANGE} groupBy (default day): day, week and month list every period of the range (clipped to it); platform and source list the values with revenue. payingUsers: distinct players with a paid event in the group over the range; arppu = total / payingUsers.`,
          params: GameParams,
          querystring: RevenueQuery,
          response: { 200: RevenueReport, 409: off },
        },
      },
      async (req) => deps.analytics.revenue(principalOf(req).organizationId, req.params.gameId, req.query),
    )
    app.get(
      '/api/v1/analytics/games/:gameId/attribution',
      {
        ...read,
        schema: {
          tags,
          summary: 'Installs, conversions, revenue, cost, commission, CPA and ROAS per attribution value',
          description: `${RANGE} groupBy (default source): the first-touch affiliate, campaign, source or medium of the players. installs: players installed in the range; conversions: those of them who have paid; revenue and commission: of the range; cost: data.cost of app_install events of the range; avgCpa = cost / conversions, avgRoas = revenue / cost (null when the divisor is 0).`,
          params: GameParams,
          querystring: AttributionQuery,
          response: { 200: AttributionReport, 409: off },
        },
      },
      async (req) =>
        deps.analytics.attribution(principalOf(req).organizationId, req.params.gameId, req.query),
    )
    app.get(
      '/api/v1/analytics/games/:gameId/segments',
      {
        ...read,
        schema: {
          tags,
          summary: 'Whale, dolphin, minnow and free players by lifetime revenue',
          description:
            "Every current player of the game by lifetime revenue, with the game's thresholds (whale >= whale, dolphin >= dolphin, minnow > 0, free = 0).",
          params: GameParams,
          response: { 200: SegmentsReport, 409: off },
        },
      },
      async (req) => deps.analytics.segments(principalOf(req).organizationId, req.params.gameId),
    )
    app.get(
      '/api/v1/analytics/games/:gameId/players',
      {
        ...read,
        schema: {
          tags,
          summary: 'Players explorer: prefix search, filters and sorts, paginated',
          description:
            'search: player id prefix; filters platform, country, segment, minRevenue (lifetime, reporting currency), lastActiveFrom/lastActiveTo (UTC days, included); sort revenue (default), sessions or lastActive, order desc (default) or asc; ties by player id.',
          params: GameParams,
          querystring: PlayersQuery,
          response: { 200: PlayersPage, 409: off },
        },
      },
      async (req) => deps.analytics.players(principalOf(req).organizationId, req.params.gameId, req.query),
    )
    app.get(
      '/api/v1/analytics/games/:gameId/players/:playerId',
      {
        ...read,
        schema: {
          tags,
          summary: "A player's profile and newest events",
          description:
            'First-touch profile (first seen, platform, country, device, attribution), sessions, lifetime revenue by type; events: the newest raw events first (page, limit), within the raw retention. 404 for an unknown player.',
          params: PlayerParams,
          querystring: PlayerQuery,
          response: { 200: PlayerProfile, 409: off },
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
