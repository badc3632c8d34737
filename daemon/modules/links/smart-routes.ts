import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Type from 'typebox'
import { IdParams, Page } from '../../../src/contract/common.js'
import {
  CreateSmartLinkBody,
  ListSmartLinksQuery,
  SmartLink,
  UpdateSmartLinkBody,
} from '../../../src/contract/smart-links.js'
import { principalOf } from '../../http/auth.js'
import { errorRef } from '../../http/openapi.js'
import type { SmartLinkService } from './index.js'

const tags = ['Smart links']

/** `/api/use/smart-links`: smart links only (a plain link's id answers 404 here, and the reverse). */
export function smartLinkRoutes(deps: { smartLinks: SmartLinkService }) {
  const { smartLinks } = deps
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>()

    app.post(
      '/api/use/smart-links',
      {
        config: { auth: 'smartLinks:write' },
        schema: {
          tags,
          summary: 'Create a smart link',
          description:
            'A visit goes to the target of the visitor platform (iOS, Android, desktop: Windows, macOS, Linux), else `fallbackUrl`. Each human visit gets a click id `clk_…`, appended to the target unless `appendClickId` is false. The short code is shared with links on the domain (409 when taken).',
          body: CreateSmartLinkBody,
          response: {
            201: SmartLink,
            409: errorRef('Short code already in use on this domain'),
            422: errorRef(
              'The custom domain is unknown or not verified, or gameId is not a game of the organization',
            ),
          },
        },
      },
      async (req, reply) =>
        reply.code(201).send(await smartLinks.create(principalOf(req).organizationId, req.body)),
    )

    app.get(
      '/api/use/smart-links',
      {
        config: { auth: 'smartLinks:read' },
        schema: {
          tags,
          summary: 'List smart links (newest first)',
          querystring: ListSmartLinksQuery,
          response: { 200: Page(SmartLink) },
        },
      },
      async (req) => smartLinks.list(principalOf(req).organizationId, req.query),
    )

    app.get(
      '/api/use/smart-links/:id',
      {
        config: { auth: 'smartLinks:read' },
        schema: { tags, summary: 'Get a smart link', params: IdParams, response: { 200: SmartLink } },
      },
      async (req) => smartLinks.get(principalOf(req).organizationId, req.params.id),
    )

    app.patch(
      '/api/use/smart-links/:id',
      {
        config: { auth: 'smartLinks:write' },
        schema: {
          tags,
          summary: 'Update a smart link',
          description:
            'A target set to null sends that platform to the fallback. A new shortCode or customDomainId moves the smart link; the old short URL then answers 404. While the short URL is in use (QR codes, or human clicks in the last 30 days) such a move needs force: true (409 otherwise).',
          params: IdParams,
          body: UpdateSmartLinkBody,
          response: {
            200: SmartLink,
            409: errorRef(
              'The new short code is already in use on the target domain, or the current short URL is in use (QR codes, or clicks in the last 30 days) and force is not true: the message names them',
            ),
            422: errorRef(
              'The custom domain is unknown or not verified, or gameId is not a game of the organization',
            ),
          },
        },
      },
      async (req) => smartLinks.update(principalOf(req).organizationId, req.params.id, req.body),
    )

    app.delete(
      '/api/use/smart-links/:id',
      {
        config: { auth: 'smartLinks:delete' },
        schema: {
          tags,
          summary: 'Delete a smart link',
          params: IdParams,
          response: { 204: Type.Null({ description: 'Deleted' }) },
        },
      },
      async (req, reply) => {
        await smartLinks.delete(principalOf(req).organizationId, req.params.id)
        return reply.code(204).send(null)
      },
    )
  }
}
