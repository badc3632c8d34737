import type { FastifyInstance } from 'fastify'

/** Request headers a browser may send cross-origin (contract, "CORS on ingestion"). */
const CORS_ALLOWED =
  'Authorization, Content-Type, Content-Encoding, X-Game-ID, X-Organization-ID, X-Signature, X-Timestamp'
/** Response headers a page may read besides the safelisted ones (Date: the SDK corrects a wrong device clock). */
const CORS_EXPOSED =
  'Date, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-Request-Id'

/**
 * Web games send from their own origin: every answer may be read by any page (no cookies are
 * involved, the SDK key is the credential), and the SDK reads Retry-After and the windows.
 */
export function installIngestCors(app: FastifyInstance): void {
  app.addHook('onSend', (_req, reply, payload, done) => {
    reply.header('access-control-allow-origin', '*')
    reply.header('access-control-expose-headers', CORS_EXPOSED)
    done(null, payload)
  })
  app.options('/api/v1/gaming/events', { schema: { hide: true } }, async (_req, reply) =>
    reply
      .code(204)
      .header('access-control-allow-methods', 'POST, OPTIONS')
      .header('access-control-allow-headers', CORS_ALLOWED)
      .header('access-control-max-age', '7200')
      .send(),
  )
}
