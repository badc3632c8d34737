/** What a host answers itself, besides the API: ACME challenges, app-link files, HTTPS and root redirects. */
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { hostName } from '../../http/host.js'
import { locationOf } from '../../urls.js'
import type { DomainDirectory, DomainService, FlaggedRootPage } from './api.js'
import { AASA_PATH, ASSETLINKS_PATH } from './app-links.js'

const ACME_PATH = '/.well-known/acme-challenge/'

/** ACME HTTP-01 responder: no key, answered on any host. */
export function acmeRoutes(deps: { domains: DomainService }) {
  const { domains } = deps
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>()

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
 * its root redirect, if set, or the warning page when a safety list holds its host.
 */
export function installDomainRedirects(
  app: FastifyInstance,
  directory: DomainDirectory,
  flaggedRoot: FlaggedRootPage,
): void {
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
      const root = directory.rootRedirectOf(host)
      if (root?.flag) {
        void flaggedRoot(reply, `${request.protocol}://${host}/`, root.flag, request.method === 'HEAD')
        return
      }
      if (root) {
        void reply
          .code(302)
          .header('location', locationOf(root.url))
          .header('cache-control', 'private, max-age=90')
          .send()
        return
      }
    }
    done()
  })
}
