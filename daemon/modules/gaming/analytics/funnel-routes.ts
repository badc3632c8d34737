import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Funnel, FunnelQuery } from '../../../../src/contract/gaming-funnel.js'
import { principalOf } from '../../../http/auth.js'
import type { GamingAnalyticsService } from './api.js'
import { noGame, off, read } from './route-common.js'

/** A game's funnels (the game named by the query, as the contract has it). */
export function funnelRoutes(deps: { analytics: GamingAnalyticsService }) {
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
    app.get(
      '/api/v1/gaming/analytics/funnel',
      {
        ...read,
        schema: {
          tags: ['Gaming analytics'],
          summary: 'Funnel: players at each ordered step, conversion, median time between steps',
          description:
            "startDate and endDate: UTC days, both included, the days of each player's first step 1 (default: the last 30 days within the game's raw retention; a range starting before it is a 400). A player reaches step k with events of steps 1..k in that order, each at or after the previous one (the same millisecond counts; one event counts for one step), all within `window` of their first step 1 in the range. conversion: players / step 1's players; stepConversion: / the previous step's (1 on step 1; null when the divisor is 0). groupBy: one funnel per value of the player's profile (platform, country) or install attribution (source, campaign, link), (none) for players without one. Read from raw events.",
          querystring: FunnelQuery,
          response: { 200: Funnel, 404: noGame, 409: off },
        },
      },
      async (req) => deps.analytics.funnel(principalOf(req).organizationId, req.query),
    )
  }
}
