import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { AppLinks } from '../../../src/contract/domains.js'
import { principalOf } from '../../http/auth.js'
import type { DomainService } from './api.js'
import { DomainParams } from './routes.js'

const tags = ['Custom domains']

/** A domain's app links (apple-app-site-association, assetlinks.json). */
export function appLinkRoutes(deps: { domains: DomainService }) {
  const { domains } = deps
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>()

    app.get(
      '/api/domains/:domainId/app-links',
      {
        config: { auth: 'domains:read' },
        schema: {
          tags,
          summary: 'App links: what the domain serves as apple-app-site-association and assetlinks.json',
          params: DomainParams,
          response: { 200: AppLinks },
        },
      },
      async (req) => domains.appLinks(principalOf(req).organizationId, req.params.domainId),
    )
    app.put(
      '/api/domains/:domainId/app-links',
      {
        config: { auth: 'domains:write' },
        schema: {
          tags,
          summary:
            'Set the app links (null for a platform: its file answers 404); served at once at /.well-known/ on the verified domain',
          params: DomainParams,
          body: AppLinks,
          response: { 200: AppLinks },
        },
      },
      async (req) => domains.setAppLinks(principalOf(req).organizationId, req.params.domainId, req.body),
    )
  }
}
