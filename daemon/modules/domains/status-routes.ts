import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Domain, Propagation, SslDetails } from '../../../src/contract/domains.js'
import { principalOf } from '../../http/auth.js'
import { errorRef } from '../../http/openapi.js'
import type { DomainService } from './api.js'
import { DomainParams } from './routes.js'

const tags = ['Custom domains']

/** A domain's DNS propagation and SSL certificate; making it the default domain. */
export function domainStatusRoutes(deps: { domains: DomainService }) {
  const { domains } = deps
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>()

    app.post(
      '/api/domains/:domainId/check-propagation',
      {
        config: { auth: 'domains:read' },
        schema: {
          tags,
          summary: 'DNS propagation per resolver and record (does not change the verification status)',
          params: DomainParams,
          response: { 200: Propagation },
        },
      },
      async (req) => domains.checkPropagation(principalOf(req).organizationId, req.params.domainId),
    )
    app.get(
      '/api/domains/:domainId/ssl',
      {
        config: { auth: 'domains:read' },
        schema: {
          tags,
          summary: 'SSL certificate details',
          params: DomainParams,
          response: { 200: SslDetails },
        },
      },
      async (req) => domains.ssl(principalOf(req).organizationId, req.params.domainId),
    )
    app.post(
      '/api/domains/:domainId/set-default',
      {
        config: { auth: 'domains:write' },
        schema: {
          tags,
          summary: 'Make a verified domain the default for new links (unsets the previous default)',
          params: DomainParams,
          response: { 200: Domain, 422: errorRef('The domain is not verified') },
        },
      },
      async (req) => domains.setDefault(principalOf(req).organizationId, req.params.domainId),
    )
  }
}
