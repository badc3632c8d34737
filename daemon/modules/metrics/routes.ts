import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Type from 'typebox'
import { ErrorBody } from '../../../src/contract/common.js'
import { safeEqual } from '../../crypto.js'
import { AppError } from '../../http/errors.js'
import { addressRange } from '../../addresses.js'
import type { Metrics } from './registry.js'

const isLoopback = (address: string | undefined) => addressRange(address ?? '') === 'loopback'

/**
 * Whether a request comes from this host. The socket's address decides (a forwarded address is
 * whatever the client wrote when LINKD_TRUST_PROXY trusts everyone); behind a trusted proxy on
 * this host, every forwarded address it vouches for must be loopback too, so the proxy does not
 * expose the metrics to its clients.
 */
function fromLoopback(request: FastifyRequest): boolean {
  return isLoopback(request.socket.remoteAddress) && (request.ips ?? []).every(isLoopback)
}

/**
 * Who may scrape: with a token, whoever presents it (compared in constant time, never logged);
 * without one, loopback clients only.
 */
function guard(token: string | undefined) {
  return async (request: FastifyRequest): Promise<void> => {
    if (token !== undefined) {
      const header = request.headers.authorization ?? ''
      const presented = header.startsWith('Bearer ') ? header.slice(7) : ''
      if (!safeEqual(presented, token))
        throw new AppError('Unauthorized', 'metrics need Authorization: Bearer <LINKD_METRICS_TOKEN>')
      return
    }
    if (!fromLoopback(request))
      throw new AppError('Forbidden', 'metrics are served to loopback clients only; set LINKD_METRICS_TOKEN')
  }
}

export function metricsRoutes(deps: { metrics: Metrics; token?: string | undefined }) {
  const { registry } = deps.metrics
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
    app.get(
      '/metrics',
      {
        onRequest: guard(deps.token),
        schema: {
          tags: ['Health'],
          summary: 'Prometheus metrics (text exposition format 0.0.4)',
          description:
            'Loopback clients only, unless LINKD_METRICS_TOKEN is set: then `Authorization: Bearer <token>` from every client, loopback included.',
          response: {
            200: {
              description: 'The metrics, in the Prometheus text format',
              content: { 'text/plain': { schema: Type.String() } },
            },
            401: ErrorBody,
            403: ErrorBody,
          },
        },
      },
      async (_request, reply) => {
        const text = await registry.metrics()
        return reply.header('content-type', registry.contentType).send(text)
      },
    )
  }
}
