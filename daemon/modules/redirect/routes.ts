import type { FastifyInstance } from 'fastify'
import type { Clock } from '../../clock.js'
import { passwordRoutes } from './password-routes.js'
import { sendAnswer, SHORT_CODE_URLS, visitRequest } from './reply.js'
import type { RedirectService } from './api.js'

/**
 * `GET|HEAD /:shortCode`: resolve by host + code and answer what the visit decides (visit.ts):
 * the link's redirect type with Location and `Cache-Control: private, max-age=90`, 404 for
 * unknown or inactive links, 410 for expired ones (JSON error body, or a small page when the
 * client accepts HTML); `/` itself is a 404 pointing at the API docs and the health check. A
 * password-protected link answers its form (`POST /:shortCode` checks the password), and a link
 * with `og` answers link-preview crawlers with its Open Graph page. `/:shortCode/` answers the
 * same: short URLs get pasted with a trailing slash.
 */
export function redirectRoutes(deps: { redirect: RedirectService; clock: Clock }) {
  const { redirect } = deps
  return async function (app: FastifyInstance) {
    for (const url of SHORT_CODE_URLS)
      app.route<{ Params: { shortCode: string }; Querystring: Record<string, unknown> }>({
        method: ['GET', 'HEAD'],
        url,
        schema: { hide: true },
        config: { apiRateLimit: false },
        async handler(request, reply) {
          const answer = await redirect.visit(request.host, request.params.shortCode, visitRequest(request))
          return sendAnswer(redirect, request, reply, answer)
        },
      })

    await passwordRoutes(deps)(app)
  }
}
