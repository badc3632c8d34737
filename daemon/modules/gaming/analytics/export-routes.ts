import { Readable } from 'node:stream'
import Type from 'typebox'
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { GameParams } from '../../../../src/contract/games.js'
import { ExportQuery } from '../../../../src/contract/gaming.js'
import { principalOf } from '../../../http/auth.js'
import type { GamingAnalyticsService } from './api.js'
import { RANGE, off, read } from './route-common.js'

/** A game's report exported as CSV or JSON, streamed. */
export function analyticsExportRoutes(deps: { analytics: GamingAnalyticsService }) {
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>()

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
  }
}
