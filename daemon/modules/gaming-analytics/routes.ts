import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { GameParams } from '../../../src/contract/games.js'
import { Overview, OverviewQuery } from '../../../src/contract/gaming.js'
import { principalOf } from '../../http/auth.js'
import type { GamingAnalyticsService } from './service.js'

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
  }
}
