import type { FastifyInstance } from 'fastify'
import { RAW_FILE_RESPONSE, sendRawFile } from '../../../raw-export.js'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { RawEventsExportQuery } from '../../../../src/contract/raw-export.js'
import { principalOf } from '../../../http/auth.js'
import type { GamingAnalyticsService } from './api.js'
import { noGame, off, read } from './route-common.js'

/** A game's raw events, every stored row of the range, streamed as NDJSON, CSV or Parquet. */
export function rawExportRoutes(deps: { analytics: GamingAnalyticsService }) {
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
    app.get(
      '/api/v1/gaming/export',
      {
        ...read,
        schema: {
          tags: ['Gaming analytics'],
          summary: "Export a game's raw events (NDJSON, CSV or Parquet), streamed",
          description:
            "type=raw_events: every stored event of the game whose time falls on a UTC day of [startDate, endDate] (default the last 30 days, at most 366), by time. Columns eventId, type, playerId, sessionId, ts (ISO 8601; Parquet: TIMESTAMP in ms, UTC), platform, country, data (the event's data as JSON text). Raw events are kept rawRetentionDays: older days have no rows. CSV text cells starting with = + - @ are prefixed with '. Content-Disposition names the file.",
          querystring: RawEventsExportQuery,
          response: {
            200: RAW_FILE_RESPONSE,
            404: noGame,
            409: off,
          },
        },
      },
      async (req, reply) => {
        const file = await deps.analytics.rawExport(principalOf(req).organizationId, req.query)
        return sendRawFile(reply, file)
      },
    )
  }
}
