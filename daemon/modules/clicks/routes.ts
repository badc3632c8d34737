import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { IdParams } from '../../../src/contract/common.js'
import { AnalyticsQuery, LinkAnalytics } from '../../../src/contract/links.js'
import { principalOf } from '../../http/auth.js'
import type { ClicksService } from './service.js'

/** The link analytics read (the path keeps its historical `analytics` name). */
export function clickRoutes(deps: { clicks: Pick<ClicksService, 'link'> }) {
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
    app.get(
      '/api/use/analytics/links/:id',
      {
        config: { auth: 'analytics:read' },
        schema: {
          tags: ['Analytics'],
          summary: 'Analytics of one link',
          description:
            'startDate and endDate (ISO 8601, both inclusive; default the last 30 days up to now) and interval hour|day|week (default day; weeks start Monday 00:00 UTC; at most 2,000 intervals). Totals and timeSeries count whole UTC hours, dimension lists and visitor figures whole UTC days. Bots and link previews are counted in botDetection only; QR scans are human clicks, also counted in qrScans.',
          params: IdParams,
          querystring: AnalyticsQuery,
          response: { 200: LinkAnalytics },
        },
      },
      async (req) => deps.clicks.link(principalOf(req).organizationId, req.params.id, req.query),
    )
  }
}
