import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { IdParams } from '../../../src/contract/common.js'
import {
  AnalyticsQuery,
  ClicksQuery,
  LinkAnalytics,
  OrganizationClicks,
} from '../../../src/contract/click-analytics.js'
import { principalOf } from '../../http/auth.js'
import type { ClicksService } from './api.js'
import { rawClickExportRoutes } from './raw-export-routes.js'

/** The link analytics reads (the paths keep their historical `analytics` name). */
export function clickRoutes(deps: { clicks: Pick<ClicksService, 'link' | 'organization' | 'rawExport'> }) {
  const rawExport = rawClickExportRoutes(deps)
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
            'startDate and endDate (ISO 8601, both inclusive; a date alone is a whole UTC day; default the last 30 days up to now) and interval hour|day|week (default day; weeks start Monday 00:00 UTC; at most 2,000 intervals). Totals and timeSeries count whole UTC hours, dimension lists and visitor figures whole UTC days. Bots and link previews are counted in botDetection only; QR scans are human clicks, also counted in qrScans.',
          params: IdParams,
          querystring: AnalyticsQuery,
          response: { 200: LinkAnalytics },
        },
      },
      async (req) => deps.clicks.link(principalOf(req).organizationId, req.params.id, req.query),
    )
    app.get(
      '/api/use/analytics/clicks',
      {
        config: { auth: 'analytics:read' },
        schema: {
          tags: ['Analytics'],
          summary: "The organization's clicks per day",
          description:
            "Every link of the key's organization, summed per UTC day: whole days from the day holding startDate to the day holding endDate (ISO 8601; default the last 30 days up to now; at most 2,000 days). clicks are human clicks (QR scans included, also counted in qrScans); bots and link previews are counted in bots only. Deleted links are not counted.",
          querystring: ClicksQuery,
          response: { 200: OrganizationClicks },
        },
      },
      async (req) => deps.clicks.organization(principalOf(req).organizationId, req.query),
    )
    await rawExport(fastify)
  }
}
