import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Type from 'typebox'
import { IdParams } from '../../../src/contract/common.js'
import { QrQuery } from '../../../src/contract/links.js'
import { principalOf } from '../../http/auth.js'
import type { LinkService } from './api.js'

const tags = ['Links']

/** `GET /api/use/links/:id/qr`: a link's own QR image (QR codes as resources: the qr-codes module). */
export function linkQrRoutes(deps: { links: LinkService }) {
  const { links } = deps
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>()

    app.get(
      '/api/use/links/:id/qr',
      {
        config: { auth: 'qrCodes:read' },
        schema: {
          tags,
          summary: 'QR code of the short link (SVG or PNG)',
          description:
            'Encodes the short URL with `?qr=1`, so a scan is counted as a QR scan. `size` is the width in pixels (default 300).',
          params: IdParams,
          querystring: QrQuery,
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
          },
        },
      },
      async (req, reply) => {
        const image = await links.qr(principalOf(req).organizationId, req.params.id, req.query)
        return reply
          .type(image.contentType === 'image/svg+xml' ? 'image/svg+xml; charset=utf-8' : 'image/png')
          .header('cache-control', 'private, max-age=3600')
          .send(image.body)
      },
    )
  }
}
