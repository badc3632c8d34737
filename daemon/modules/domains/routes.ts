import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Type from 'typebox'
import { Page } from '../../../src/contract/common.js'
import {
  AddDomainBody,
  Domain,
  DomainStats,
  ListDomainsQuery,
  UpdateDomainBody,
} from '../../../src/contract/domains.js'
import { principalOf } from '../../http/auth.js'
import { errorRef } from '../../http/openapi.js'
import type { DomainService } from './api.js'

const tags = ['Custom domains']
export const DomainParams = Type.Object({ domainId: Type.String({ minLength: 1, maxLength: 100 }) })

/** `/api/domains`: reads need domains:read; create, verify, update domains:write; delete domains:delete. */
export function domainRoutes(deps: { domains: DomainService }) {
  const { domains } = deps
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>()

    app.post(
      '/api/domains',
      {
        config: { auth: 'domains:write' },
        schema: {
          tags,
          summary: 'Add a custom domain (its DNS records to create are in the response)',
          body: AddDomainBody,
          response: {
            201: Domain,
            403: errorRef("The key lacks the permission, or the plan's custom domain limit is reached"),
            409: errorRef(
              'The domain has already been added (domains are unique across organizations). When another organization added it and has not verified it, the message and the details (txtRecord.name, txtRecord.value) name the TXT record that, published, lets this organization add it in its place',
            ),
            422: errorRef("The service's own domain, or an apex domain while the server has no A record IP"),
          },
        },
      },
      async (req, reply) =>
        reply.code(201).send(await domains.add(principalOf(req).organizationId, req.body)),
    )
    app.get(
      '/api/domains',
      {
        config: { auth: 'domains:read' },
        schema: {
          tags,
          summary: 'List custom domains',
          querystring: ListDomainsQuery,
          response: { 200: Page(Domain) },
        },
      },
      async (req) => domains.list(principalOf(req).organizationId, req.query),
    )
    app.get(
      '/api/domains/stats',
      {
        config: { auth: 'domains:read' },
        schema: {
          tags,
          summary: 'Custom domain statistics of the organization',
          response: { 200: DomainStats },
        },
      },
      async (req) => domains.stats(principalOf(req).organizationId),
    )
    app.get(
      '/api/domains/:domainId',
      {
        config: { auth: 'domains:read' },
        schema: {
          tags,
          summary: 'Domain details with its DNS records and their status',
          params: DomainParams,
          response: { 200: Domain },
        },
      },
      async (req) => domains.get(principalOf(req).organizationId, req.params.domainId),
    )
    app.post(
      '/api/domains/:domainId/verify',
      {
        config: { auth: 'domains:write' },
        schema: {
          tags,
          summary:
            'Check the DNS records on every resolver (verified when all agree), or fetch the verification file (FILE); SSL provisioning starts when verified',
          params: DomainParams,
          response: { 200: Domain },
        },
      },
      async (req) => domains.verify(principalOf(req).organizationId, req.params.domainId),
    )
    app.patch(
      '/api/domains/:domainId',
      {
        config: { auth: 'domains:write' },
        schema: {
          tags,
          summary: 'Update domain settings (default flag, root redirect, verification method)',
          params: DomainParams,
          body: UpdateDomainBody,
          response: {
            200: Domain,
            422: errorRef(
              'isDefault true on a domain that is not verified, or a new verificationMethod on a verified one',
            ),
          },
        },
      },
      async (req) => domains.update(principalOf(req).organizationId, req.params.domainId, req.body),
    )
    app.delete(
      '/api/domains/:domainId',
      {
        config: { auth: 'domains:delete' },
        schema: {
          tags,
          summary: 'Delete a domain (not the default); its links fall back to the shared domain',
          params: DomainParams,
          response: {
            204: Type.Null({ description: 'Deleted' }),
            422: errorRef('The domain is the default domain: set another default first'),
          },
        },
      },
      async (req, reply) => {
        await domains.delete(principalOf(req).organizationId, req.params.domainId)
        return reply.code(204).send(null)
      },
    )
  }
}
