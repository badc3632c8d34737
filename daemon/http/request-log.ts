/**
 * One log line per request, written when the answer is sent ("request completed": method, path,
 * host, client address, status, time, request id), instead of Fastify's two (incoming and
 * completed). Health probes and metric scrapes (every few seconds, from machines) go at debug.
 * The query string is never logged: it can carry a visitor's data or a token.
 */
import type { FastifyInstance } from 'fastify'

/** What a log line shows of a request (Fastify's `req` serializer, replaced). */
export function requestForLog(req: { method?: string; url?: string; host?: string; ip?: string }) {
  return { method: req.method, url: pathOf(req.url ?? ''), host: req.host, remoteAddress: req.ip }
}

const pathOf = (url: string) => url.split('?', 1)[0] ?? ''

/** `/health…` and `/metrics`: logged at debug. */
export function isQuietPath(url: string | undefined): boolean {
  const path = pathOf(url ?? '')
  return path === '/metrics' || path === '/health' || path.startsWith('/health/')
}

/** Logs each answered request once (the fast redirect path logs its own the same way). */
export function installRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', (request, reply, done) => {
    const entry = { req: request, res: reply, responseTime: reply.elapsedTime }
    if (isQuietPath(request.url)) request.log.debug(entry, 'request completed')
    else request.log.info(entry, 'request completed')
    done()
  })
}
