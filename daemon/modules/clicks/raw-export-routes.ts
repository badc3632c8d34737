import type { FastifyInstance } from 'fastify'
import { RAW_FILE_RESPONSE, sendRawFile } from '../../raw-export.js'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { ClicksExportQuery } from '../../../src/contract/raw-export.js'
import { principalOf } from '../../http/auth.js'
import { errorRef } from '../../http/openapi.js'
import type { ClicksService } from './api.js'

/** Every raw click of a range, streamed as NDJSON, CSV or Parquet. */
export function rawClickExportRoutes(deps: { clicks: Pick<ClicksService, 'rawExport'> }) {
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
    app.get(
      '/api/use/analytics/clicks/export',
      {
        config: { auth: 'analytics:read' },
        schema: {
          tags: ['Analytics'],
          summary: 'Export raw clicks (NDJSON, CSV or Parquet), streamed',
          description:
            "Every stored click of the key's organization, or of one link (linkId; another organization's link is a 404), on the UTC days from the day holding startDate to the day holding endDate (ISO 8601; default the last 30 days up to now; at most 2,000 days), by time, bots included (bot: true). Columns clickId (a smart link's click id, else null), linkId, ts (ISO 8601; Parquet: TIMESTAMP in ms, UTC), country, region, device, browser, os, referrer (its domain), utmSource, utmMedium, utmCampaign, bot, qrCodeId (the QR code of a scan, else null), variant (the split destination a visit went to, else null). Never an IP address nor the visitor hash. CSV text cells starting with = + - @ are prefixed with '. Content-Disposition names the file.",
          querystring: ClicksExportQuery,
          response: {
            200: RAW_FILE_RESPONSE,
            404: errorRef("linkId: no such link in the key's organization"),
          },
        },
      },
      async (req, reply) => {
        const file = await deps.clicks.rawExport(principalOf(req).organizationId, req.query)
        return sendRawFile(reply, file)
      },
    )
  }
}
