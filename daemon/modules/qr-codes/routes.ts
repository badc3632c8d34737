import { createHash } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Type from 'typebox'
import { IdParams, Page } from '../../../src/contract/common.js'
import {
  CreateQrCodeBody,
  ListQrCodesQuery,
  QrCode,
  QrImageQuery,
  UpdateQrCodeBody,
} from '../../../src/contract/qr-codes.js'
import { principalOf } from '../../http/auth.js'
import { errorRef } from '../../http/openapi.js'
import type { QrCodeService } from './service.js'

const tags = ['QR codes']

/** A 100 KB logo is ~137 KB as base64: a create or update body takes it whatever the general limit. */
export const QR_BODY_LIMIT = 256 * 1024

/** `/api/use/qr-codes`: QR codes of links and smart links, each with its own scans. */
export function qrCodeRoutes(deps: { qrCodes: QrCodeService; bodyLimitBytes: number }) {
  const { qrCodes } = deps
  const bodyLimit = Math.max(deps.bodyLimitBytes, QR_BODY_LIMIT)
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>()

    app.post(
      '/api/use/qr-codes',
      {
        bodyLimit,
        config: { auth: 'qrCodes:write' },
        schema: {
          tags,
          summary: 'Create a QR code',
          description:
            'For exactly one of `linkId` or `smartLinkId`. The code encodes `encodedUrl` (the short URL with `?qr=<id>`): its visits count in its own `scans` and as QR scans of the link. A logo forces error correction H; a foreground/background contrast below 3:1 is refused (400).',
          body: CreateQrCodeBody,
          response: {
            201: QrCode,
            404: errorRef('The link or smart link is not one of the organization'),
          },
        },
      },
      async (req, reply) =>
        reply.code(201).send(await qrCodes.create(principalOf(req).organizationId, req.body)),
    )

    app.get(
      '/api/use/qr-codes',
      {
        config: { auth: 'qrCodes:read' },
        schema: {
          tags,
          summary: 'List QR codes (newest first)',
          querystring: ListQrCodesQuery,
          response: { 200: Page(QrCode) },
        },
      },
      async (req) => qrCodes.list(principalOf(req).organizationId, req.query),
    )

    app.get(
      '/api/use/qr-codes/:id',
      {
        config: { auth: 'qrCodes:read' },
        schema: { tags, summary: 'Get a QR code', params: IdParams, response: { 200: QrCode } },
      },
      async (req) => qrCodes.get(principalOf(req).organizationId, req.params.id),
    )

    app.patch(
      '/api/use/qr-codes/:id',
      {
        bodyLimit,
        config: { auth: 'qrCodes:write' },
        schema: {
          tags,
          summary: 'Update a QR code',
          description:
            'A style field left out keeps its stored value; `logo: null` removes the logo. The encoded URL never changes (printed codes keep working).',
          params: IdParams,
          body: UpdateQrCodeBody,
          response: { 200: QrCode },
        },
      },
      async (req) => qrCodes.update(principalOf(req).organizationId, req.params.id, req.body),
    )

    app.delete(
      '/api/use/qr-codes/:id',
      {
        config: { auth: 'qrCodes:delete' },
        schema: {
          tags,
          summary: 'Delete a QR code',
          description: 'Its printed copies keep redirecting; their visits then count on the link only.',
          params: IdParams,
          response: { 204: Type.Null({ description: 'Deleted' }) },
        },
      },
      async (req, reply) => {
        await qrCodes.delete(principalOf(req).organizationId, req.params.id)
        return reply.code(204).send(null)
      },
    )

    app.get(
      '/api/use/qr-codes/:id/image',
      {
        config: { auth: 'qrCodes:read' },
        schema: {
          tags,
          summary: 'The QR code image (SVG or PNG)',
          description: 'Decodes to the code’s `encodedUrl`. `size` is the width in pixels (default 300).',
          params: IdParams,
          querystring: QrImageQuery,
          response: {
            200: {
              description: 'The QR image',
              content: {
                'image/svg+xml': { schema: Type.Unsafe<string | Buffer>({ type: 'string' }) },
                'image/png': {
                  schema: Type.Unsafe<string | Buffer>({ type: 'string', format: 'binary' }),
                },
              },
            },
            304: Type.Null({ description: 'Not modified (If-None-Match matched the ETag)' }),
            422: errorRef('The stored logo could not be drawn (within 2 s for an SVG) into the PNG'),
          },
        },
      },
      async (req, reply) => {
        const image = await qrCodes.image(principalOf(req).organizationId, req.params.id, req.query)
        // The style can change (PATCH): caches revalidate, and an unchanged image is a 304.
        const etag = `"${createHash('sha256').update(image.body).digest('base64url').slice(0, 27)}"`
        reply.header('cache-control', 'private, no-cache').header('etag', etag)
        if (req.headers['if-none-match'] === etag) return reply.code(304).send(null)
        return reply
          .type(image.contentType === 'image/svg+xml' ? 'image/svg+xml; charset=utf-8' : 'image/png')
          .send(image.body)
      },
    )
  }
}
