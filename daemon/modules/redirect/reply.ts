/** A visit's answer (visit.ts) as a Fastify reply: the routes' half of the translation. */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from '../../http/errors.js'
import { errorPage, rootPage, wantsHtml } from './pages.js'
import { pageHeaders } from './protected.js'
import type { RedirectService, VisitAnswer, VisitRequest } from './api.js'

/**
 * A short URL's paths (GET, HEAD and the password form's POST): the code, and the code with one
 * trailing slash, as short URLs often get pasted.
 */
export const SHORT_CODE_URLS = ['/:shortCode', '/:shortCode/'] as const

/** The facts of a visit from a Fastify request (its parsed query, request-target and raw query). */
export function visitRequest(request: FastifyRequest): VisitRequest {
  const { method, ip, headers, query, receivedAt, url } = request
  const q = url.indexOf('?')
  const rawQuery = q === -1 ? '' : url.slice(q + 1)
  return {
    method,
    ip,
    headers,
    query: query as Record<string, unknown> | undefined,
    receivedAt,
    url,
    rawQuery,
  }
}

/** A 404 or 410: the JSON error body, or a small page when the client accepts HTML. */
function fail(request: FastifyRequest, reply: FastifyReply, answer: Extract<VisitAnswer, { kind: 'error' }>) {
  const { status, message } = answer
  reply.header('cache-control', 'no-store')
  if (wantsHtml(request.headers.accept)) {
    request.errorInfo = `${status === 410 ? 'Gone' : 'NotFound'}: ${message}`
    const html = answer.root ? rootPage() : errorPage(status, message)
    return reply.code(status).type('text/html; charset=utf-8').send(html)
  }
  throw new AppError(status === 410 ? 'Gone' : 'NotFound', message)
}

/**
 * A visit's answer as a Fastify reply, its click handed to the clicks module. Every 3xx has
 * Location, Cache-Control and no body, `Content-Length: 0` for GET and HEAD alike, as the fast
 * path writes it (docs/decisions/redirect-hot-path.md).
 */
export function sendAnswer(
  redirect: Pick<RedirectService, 'record'>,
  request: FastifyRequest,
  reply: FastifyReply,
  answer: VisitAnswer,
) {
  switch (answer.kind) {
    case 'reserved':
      return reply.callNotFound()
    case 'error':
      return fail(request, reply, answer)
    case 'page':
      if (answer.click) redirect.record(answer.click)
      pageHeaders(reply)
      if (answer.csp !== undefined) reply.header('content-security-policy', answer.csp)
      return reply.code(200).send(answer.body)
    case 'redirect':
      if (answer.click) redirect.record(answer.click)
      return reply
        .code(answer.status)
        .header('location', answer.location)
        .header('cache-control', answer.cacheControl)
        .header('content-length', '0')
        .send()
  }
}
