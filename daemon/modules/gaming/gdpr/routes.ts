import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { IdParams, Page } from '../../../../src/contract/common.js'
import { GdprDeletion, GdprDeletionBody, GdprDeletionsQuery } from '../../../../src/contract/gaming.js'
import { principalOf } from '../../../http/auth.js'
import { errorRef } from '../../../http/openapi.js'
import type { GdprService } from './api.js'

const tags = ['GDPR']

export function gdprRoutes(deps: { gdpr: GdprService }) {
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
    app.post(
      '/api/v1/gaming/gdpr/deletions',
      {
        config: { auth: 'gdpr:write' },
        schema: {
          tags,
          summary: 'Request the deletion of all data of one player (irreversible, asynchronous)',
          description:
            'confirmation must be DELETE. 202 with the request, status queued; a job purges the raw events, sessions, profile, device fingerprints, attribution, fraud records and per-player aggregate rows (queued → processing → completed). Anonymous daily totals remain. The record is kept 365 days after completion. An unknown game is 404.',
          body: GdprDeletionBody,
          response: { 202: GdprDeletion, 404: errorRef('No such game in the organization') },
        },
      },
      async (req, reply) =>
        reply.code(202).send(await deps.gdpr.request(principalOf(req).organizationId, req.body)),
    )
    app.get(
      '/api/v1/gaming/gdpr/deletions',
      {
        config: { auth: 'gdpr:read' },
        schema: {
          tags,
          summary: 'List GDPR deletions (newest first)',
          description:
            'The organization’s deletion requests and records: queued and processing ones, and completed ones for 365 days after completion. gameId is the game’s id as in the request (records of a deleted game stay listed); an unknown gameId lists nothing.',
          querystring: GdprDeletionsQuery,
          response: { 200: Page(GdprDeletion) },
        },
      },
      async (req) => deps.gdpr.list(principalOf(req).organizationId, req.query),
    )
    app.get(
      '/api/v1/gaming/gdpr/deletions/:id',
      {
        config: { auth: 'gdpr:read' },
        schema: {
          tags,
          summary: 'Status of a GDPR deletion',
          params: IdParams,
          response: { 200: GdprDeletion },
        },
      },
      async (req) => deps.gdpr.get(principalOf(req).organizationId, req.params.id),
    )
  }
}
