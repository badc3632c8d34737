import { Readable } from 'node:stream'
import Type, { type Static, type TSchema } from 'typebox'
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { GameParams } from '../../../../src/contract/games.js'
import { Overview, OverviewQuery } from '../../../../src/contract/gaming.js'
import {
  Events,
  ExportQuery,
  Geography,
  Leaderboard,
  LeaderboardQuery,
  Retention,
  RetentionQuery,
} from '../../../../src/contract/gaming.js'
import { principalOf } from '../../../http/auth.js'
import { errorRef } from '../../../http/openapi.js'
import type { GamingAnalyticsService } from './index.js'
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

const off = errorRef('Gaming analytics is off for this game (modules.analytics)')

const RANGE =
  "startDate and endDate: UTC days, both included; default the last 30 days up to today; at most 366 days. Money in the game's reporting currency (`currency`)."

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
          response: { 200: Overview, 409: off },
        },
      },
      async (req) => deps.analytics.overview(principalOf(req).organizationId, req.params.gameId, req.query),
    )

    // Retention, leaderboard, geography, events, export.
    const read = { config: { auth: 'analytics:read' as const } }
    /** A report route: GET …/:gameId/<name>, analytics:read, answered by the service's method. */
    const report = <Q extends TSchema, R extends TSchema>(
      name: string,
      docs: { summary: string; description: string },
      querystring: Q,
      response: R,
      answer: (organizationId: string, slug: string, query: Static<Q>) => Promise<Static<R>>,
    ) =>
      app.get(
        `/api/v1/analytics/games/:gameId/${name}`,
        {
          ...read,
          schema: {
            tags: ['Gaming analytics'],
            ...docs,
            params: GameParams,
            querystring,
            response: { 200: response, 409: off },
          },
        },
        // Fastify cannot resolve the reply type of a generic schema; `answer` returns Static<R>.
        (req) => answer(principalOf(req).organizationId, req.params.gameId, req.query as Static<Q>) as never,
      )
    report(
      'retention',
      {
        summary: 'Retention cohorts: players retained on days 0, 1, 3, 7, 14 and 30 after install',
        description: `${RANGE} One row per install day (granularity=day) or ISO week (week) of the range with installs; a day not reached yet (after today; for a week, by its last install day) is null. Days after the range's end count: the range picks the cohorts.`,
      },
      RetentionQuery,
      Retention,
      (organizationId, slug, query) => deps.analytics.retention(organizationId, slug, query),
    )
    report(
      'leaderboard',
      {
        summary: 'Top players by revenue earned in the range, with rank',
        description: `${RANGE} limit 1-100, default 10. Equal revenue ranks by player id. A player deleted by GDPR is not listed.`,
      },
      LeaderboardQuery,
      Leaderboard,
      (organizationId, slug, query) => deps.analytics.leaderboard(organizationId, slug, query),
    )
    report(
      'geography',
      {
        summary: 'Per country: players, sessions, revenue, revenue per player',
        description: `${RANGE} country is the player's profile country (first known; null when never known); players: distinct players active in the range; sorted by players.`,
      },
      OverviewQuery,
      Geography,
      (organizationId, slug, query) => deps.analytics.geography(organizationId, slug, query),
    )
    report(
      'events',
      {
        summary: 'Per event type: count, unique players, percentage of all events',
        description: `${RANGE} Named types (custom: false), and each custom event name as its own row (custom: true); uniquePlayers: distinct players who sent the type in the range (null for a custom name over a range holding days stored by linkd 0.1); sorted by count.`,
      },
      OverviewQuery,
      Events,
      (organizationId, slug, query) => deps.analytics.events(organizationId, slug, query),
    )
    app.get(
      '/api/v1/analytics/games/:gameId/export',
      {
        ...read,
        schema: {
          tags: ['Gaming analytics'],
          summary: 'Export a report as CSV or JSON, streamed',
          description: `${RANGE} CSV per RFC 4180 with a header row; text cells starting with = + - @ are prefixed with '. JSON: an array of flat rows. limit: default 10,000, at most 1,000,000 rows. Content-Disposition names the file.`,
          params: GameParams,
          querystring: ExportQuery,
          response: {
            200: {
              description: 'The rows (CSV or a JSON array of flat objects)',
              content: {
                'text/csv': { schema: Type.Unsafe<string | Readable>({ type: 'string' }) },
                'application/json': {
                  schema: Type.Unsafe<Readable>({ type: 'array', items: { type: 'object' } }),
                },
              },
            },
            409: off,
          },
        },
      },
      async (req, reply) => {
        const file = await deps.analytics.export(
          principalOf(req).organizationId,
          req.params.gameId,
          req.query,
        )
        return reply
          .header('content-type', file.contentType)
          .header('content-disposition', `attachment; filename="${file.fileName}"`)
          .send(Readable.from(file.body))
      },
    )
    // Revenue, attribution, segments, players.
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
