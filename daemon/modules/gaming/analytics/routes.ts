import type { Static, TSchema } from 'typebox'
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { GameParams } from '../../../../src/contract/games.js'
import { Overview, OverviewQuery } from '../../../../src/contract/gaming.js'
import {
  Events,
  Geography,
  Leaderboard,
  LeaderboardQuery,
  Retention,
  RetentionQuery,
} from '../../../../src/contract/gaming.js'
import { principalOf } from '../../../http/auth.js'
import type { GamingAnalyticsService } from './api.js'
import { RANGE, off, read } from './route-common.js'
import { analyticsExportRoutes } from './export-routes.js'
import { revenueRoutes } from './revenue-routes.js'
import { funnelRoutes } from './funnel-routes.js'
import { rawExportRoutes } from './raw-export-routes.js'

/** A game's overview and reports; then its export (export-routes.ts) and revenue (revenue-routes.ts) routes. */
export function gamingAnalyticsRoutes(deps: { analytics: GamingAnalyticsService }) {
  const rest = [analyticsExportRoutes(deps), revenueRoutes(deps), funnelRoutes(deps), rawExportRoutes(deps)]
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

    // Retention, leaderboard, geography, events.
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
        description: `${RANGE} One row per install day (granularity=day) or ISO week (week) of the range with installs; a day not reached yet (after today; for a week, by its last install day) is null. Days after the range's end count: the range picks the cohorts. groupBy: rows gain \`group\` (the player's platform, country, install source, campaign or link; (none) for players without one), one cohort list per group. returnEvent: a player is retained on day N when they sent that event type (custom names too) on day N; the sizes stay every install. Read from the cohort aggregates (returnEvent: the cohorts' player-days), never raw events.`,
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

    for (const more of rest) await more(fastify)
  }
}
