import Type from 'typebox'
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { IdParams, Page, PageQuery } from '../../../src/contract/common.js'
import {
  CreateExportDestinationBody,
  ExportDestination,
  ExportRun,
  RunExportBody,
} from '../../../src/contract/raw-export.js'
import { principalOf } from '../../http/auth.js'
import { errorRef } from '../../http/openapi.js'
import type { ExportsService } from './api.js'

const TAGS = ['Exports']

/** Scheduled exports' destinations, and a run of one day now. */
export function exportRoutes(deps: { exports: ExportsService }) {
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
    app.post(
      '/api/exports/destinations',
      {
        config: { auth: 'exports:write' },
        schema: {
          tags: TAGS,
          summary: 'Add a destination of the daily raw export (S3 or S3-compatible)',
          description:
            'Every day shortly after 00:00 UTC, the previous UTC day of each dataset is written as one object, <prefix>/<dataset>/date=YYYY-MM-DD/part-0.<format> (days missed while the store failed are written on the next days, up to a week back). raw_events needs gameId. endpoint: HTTPS (HTTP only for localhost and 127.0.0.1), reached under the webhooks’ address rules (LINKD_WEBHOOK_ALLOW_*: an address literal they refuse is a 400); leave it out for AWS S3. secretAccessKey is stored encrypted and never returned. At most 20 destinations per organization (409 beyond).',
          body: CreateExportDestinationBody,
          response: {
            201: ExportDestination,
            404: errorRef("gameId: no such game in the key's organization"),
            409: errorRef('The organization already has the most destinations allowed'),
          },
        },
      },
      async (req, reply) =>
        reply.code(201).send(await deps.exports.create(principalOf(req).organizationId, req.body)),
    )
    app.get(
      '/api/exports/destinations',
      {
        config: { auth: 'exports:read' },
        schema: {
          tags: TAGS,
          summary: "The organization's export destinations, with each one's last run, success and error",
          querystring: PageQuery,
          response: { 200: Page(ExportDestination) },
        },
      },
      async (req) => deps.exports.list(principalOf(req).organizationId, req.query),
    )
    app.delete(
      '/api/exports/destinations/:id',
      {
        config: { auth: 'exports:write' },
        schema: {
          tags: TAGS,
          summary: 'Remove an export destination (the objects written stay)',
          params: IdParams,
          response: { 204: Type.Null({ description: 'Removed' }) },
        },
      },
      async (req, reply) => {
        await deps.exports.remove(principalOf(req).organizationId, req.params.id)
        return reply.code(204).send(null)
      },
    )
    app.post(
      '/api/exports/destinations/:id/run',
      {
        config: { auth: 'exports:write' },
        schema: {
          tags: TAGS,
          summary: 'Write one UTC day now (default yesterday)',
          description:
            'Writes the day of every dataset of the destination, replacing the objects of that day, and answers once they are stored. An upload is tried 3 times (once when the store refuses it with a 4xx); when the store keeps failing, the answer is a 503 naming its error, also shown as lastError. A raw_events game with analytics off is a 409.',
          params: IdParams,
          body: RunExportBody,
          response: {
            200: ExportRun,
            409: errorRef("The game's analytics is off"),
            503: errorRef('The object store kept failing'),
          },
        },
        // The body is optional: none means yesterday.
        preValidation: (req, _reply, done) => {
          req.body ??= {}
          done()
        },
      },
      async (req) => deps.exports.run(principalOf(req).organizationId, req.params.id, req.body.date),
    )
  }
}
