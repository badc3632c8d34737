import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Type from 'typebox'
import { Page } from '../../../src/contract/common.js'
import {
  AddDomainBody,
  AppLinks,
  Domain,
  DomainStats,
  ListDomainsQuery,
  Propagation,
  SslDetails,
  UpdateDomainBody,
} from '../../../src/contract/domains.js'
import { principalOf } from '../../http/auth.js'
import { errorRef } from '../../http/openapi.js'
import { hostName } from '../redirect/index.js'
import type { DomainDirectory, DomainService } from './index.js'
import { AASA_PATH, ASSETLINKS_PATH } from './app-links.js'

const tags = ['Custom domains']
const DomainParams = Type.Object({ domainId: Type.String({ minLength: 1, maxLength: 100 }) })
const ACME_PATH = '/.well-known/acme-challenge/'

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

    // ACME HTTP-01 responder: no key, answered on any host.
    app.get<{ Params: { token: string } }>(
      `${ACME_PATH}:token`,
      { schema: { hide: true }, config: { apiRateLimit: false } },
      async (req, reply) => {
        const answer = /^[A-Za-z0-9_-]{1,256}$/.test(req.params.token)
          ? await domains.challengeResponse(req.params.token)
          : undefined
        if (!answer) return reply.code(404).type('text/plain').send('not found')
        return reply.type('text/plain').send(answer)
      },
    )
  }
}

/** Paths answered before any redirect of the domain (ACME, apps' verifiers must not be redirected). */
const APP_LINK_PATHS = new Set([AASA_PATH, ASSETLINKS_PATH])

/**
 * A verified custom domain's app-link files (GET/HEAD, over HTTP and HTTPS; unset → the 404 of
 * an unknown route). Otherwise plain HTTP to a custom domain with an active certificate → 308 to
 * the same URL on HTTPS (the ACME challenge path excepted); GET / on a verified custom domain →
 * its root redirect, if set.
 */
export function installDomainRedirects(app: FastifyInstance, directory: DomainDirectory): void {
  app.addHook('onRequest', (request, reply, done) => {
    const rawHost = request.host
    if (!rawHost) return done()
    const host = hostName(rawHost)
    const path = request.url.split('?', 1)[0]!
    if (APP_LINK_PATHS.has(path)) {
      const file =
        request.method === 'GET' || request.method === 'HEAD' ? directory.appLinkFile(host, path) : undefined
      if (file === undefined) return done()
      void reply.code(200).type('application/json').header('cache-control', 'public, max-age=300').send(file)
      return
    }
    if (request.protocol === 'http' && directory.httpsOnly(host) && !request.url.startsWith(ACME_PATH)) {
      void reply.code(308).header('location', `https://${host}${request.url}`).send()
      return
    }
    if (request.url === '/' && (request.method === 'GET' || request.method === 'HEAD')) {
      const target = directory.rootRedirectOf(host)
      if (target) {
        void reply.code(302).header('location', target).header('cache-control', 'private, max-age=90').send()
        return
      }
    }
    done()
  })
}
