import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Clock } from '../../clock.js'
import { AppError } from '../../http/errors.js'
import { clickInput } from './click.js'
import { answerAt, CACHE_CONTROL, errorPage, ROOT_MESSAGE, rootPage, wantsHtml } from './pages.js'
import type { RedirectService } from './index.js'

function fail(
  request: FastifyRequest,
  reply: FastifyReply,
  status: 404 | 410,
  message: string,
  html = () => errorPage(status, message),
) {
  reply.header('cache-control', 'no-store')
  if (wantsHtml(request.headers.accept)) {
    request.errorInfo = `${status === 410 ? 'Gone' : 'NotFound'}: ${message}`
    return reply.code(status).type('text/html; charset=utf-8').send(html())
  }
  throw new AppError(status === 410 ? 'Gone' : 'NotFound', message)
}

/**
 * `GET|HEAD /:shortCode`: resolve by host + code, answer the link's redirect type with Location and
 * `Cache-Control: private, max-age=90`, buffer the click, reply. 404 for unknown or inactive
 * links, 410 for expired ones (JSON error body, or a small page when the client accepts HTML); `/`
 * itself is a 404 pointing at the API docs and the health check.
 */
export function redirectRoutes(deps: { redirect: RedirectService; clock: Clock }) {
  const { redirect } = deps
  return async function (app: FastifyInstance) {
    app.route<{ Params: { shortCode: string }; Querystring: Record<string, unknown> }>({
      method: ['GET', 'HEAD'],
      url: '/:shortCode',
      schema: { hide: true },
      config: { apiRateLimit: false },
      async handler(request, reply) {
        const code = request.params.shortCode
        // The bare domain (a custom domain's root redirect is answered before routing).
        if (code === '') return fail(request, reply, 404, ROOT_MESSAGE, rootPage)
        const found = await redirect.lookup(request.host, code)
        if (found.kind === 'reserved') return reply.callNotFound()
        if (found.kind === 'not-found') return fail(request, reply, 404, `short link /${code} not found`)
        const link = found.link
        const live =
          found.kind === 'redirect' &&
          (link.maxClicks === null ||
            (await redirect.takeCappedClick(link, request.method, request.headers['user-agent'] ?? '')))
        if (!live) {
          if (link.expiredUrl === null) return fail(request, reply, 410, `short link /${code} has expired`)
          // An expired link with an expiredUrl sends the visitor there; no click is counted.
          const expired = answerAt(link, link.expiredUrl)
          reply.code(302).header('location', expired.location).header('cache-control', 'no-store')
          if (request.method === 'HEAD') return reply.send()
          return reply.type('text/html; charset=utf-8').send(expired.body)
        }

        redirect.record(clickInput(link, deps.clock.now(), request))
        const q = request.url.indexOf('?')
        const rawQuery = q === -1 ? '' : request.url.slice(q + 1)
        const answer = redirect.answer(link, { headers: request.headers, ip: request.ip, rawQuery })
        reply
          .code(link.redirectType)
          .header('location', answer.location)
          .header('cache-control', CACHE_CONTROL)
        if (request.method === 'HEAD') return reply.send()
        return reply.type('text/html; charset=utf-8').send(answer.body)
      },
    })
  }
}
