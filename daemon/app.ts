import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import proxyAddr from '@fastify/proxy-addr'
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify'
import type { Config } from './config.js'
import { systemClock, type Clock } from './clock.js'
import { newId } from './crypto.js'
import { addressRange } from './addresses.js'
import { clientErrorHandler, frameworkErrorHandler, installErrorHandling } from './http/errors.js'
import { installAccess } from './http/auth.js'
import { installIdempotency } from './http/idempotency.js'
import { installOpenApi } from './http/openapi.js'
import { installBodyNestingLimit } from './http/json-guards.js'
import { lazyCompilers } from './http/lazy-compilers.js'
import { createConnectionGuard, type ConnectionGuard } from './http/connections.js'
import { installRequestLog, requestForLog } from './http/request-log.js'
import {
  createMemoryRateLimitStore,
  inProcessQuotas,
  type MemoryRateLimitStore,
  type RateLimitStore,
} from './http/rate-limit.js'
import { createDatabaseRateLimitStore } from './http/rate-limit-store.js'
import { compose, type Composition } from './composition.js'
import type { CompositionDeps } from './services.js'
import { packageVersion } from '../src/version.js'

/** What the server is built on; the composition root (daemon/composition.ts) wires the rest. */
export interface AppDeps extends Omit<CompositionDeps, 'clock' | 'log' | 'limiter'> {
  clock?: Clock
  /** Pino options, or false for no logs (tests). */
  logger?: FastifyServerOptions['logger']
  /** The quotas' counters (default: the database's on PostgreSQL, this process's memory on SQLite). */
  limiter?: RateLimitStore
}

declare module 'fastify' {
  interface FastifyRequest {
    /** performance.now() when the request arrived (server response time of redirects). */
    receivedAt: number
  }
  interface FastifyInstance {
    linkd: {
      services: Composition['services']
      scheduler: Composition['scheduler']
      metrics: Composition['metrics']
      limiter: RateLimitStore
      /** The per-IP windows (API and redirects): this process's own. */
      localLimiter: MemoryRateLimitStore
      /** Starts the background work: job schedule and buffer flushers. Tests leave it off. */
      startBackground(): void
      /** The per-address connection cap and header timeout, for every listener (HTTPS too). */
      connections: ConnectionGuard
    }
  }
}

/** true, false, a hop count, or a comma list of proxy addresses/CIDRs. */
function trustProxy(
  value: Config['trustProxy'],
): boolean | string[] | ((addr: string, hop: number) => boolean) {
  if (typeof value === 'string')
    return value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
  if (typeof value === 'number') return (_addr, hop) => hop < value
  return value
}

/**
 * Whether a socket's address is a trusted proxy, whose connections the per-address cap leaves
 * alone; undefined: none is. A list names the proxies. `true` and a hop count name none: any
 * client could pass for the proxy, so only a non-public address (this host, a private network,
 * where such a setting belongs) is taken for one.
 */
const PRIVATE_RANGES = new Set(['loopback', 'private', 'uniqueLocal', 'linkLocal', 'carrierGradeNat'])
function trustedProxy(trust: ReturnType<typeof trustProxy>): ((address: string) => boolean) | undefined {
  if (trust === false) return undefined
  if (trust === true || typeof trust === 'function')
    return (address) => PRIVATE_RANGES.has(addressRange(address))
  const listed = proxyAddr.compile(trust)
  return (address) => listed(address, 0)
}

/** Logger options with the request shown as its log line shows it (requestForLog). */
function withRequestSerializer(logger: AppDeps['logger']): AppDeps['logger'] {
  if (!logger || typeof logger !== 'object') return logger ?? false
  return { ...logger, serializers: { ...logger.serializers, req: requestForLog } }
}

/** Request ids: a random per-process prefix and a counter (no randomness on the hot path). */
function requestIds(): () => string {
  const prefix = newId('req')
  let n = 0
  return () => `${prefix}${(++n).toString(36)}`
}

/** Time to receive a whole request, body included (Node's default, which Fastify turns off). */
const REQUEST_TIMEOUT_MS = 300_000

/** Builds the whole HTTP application on the given database. Tests call `app.inject()` on it. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const clock = deps.clock ?? systemClock
  const access: { limitIp?: ReturnType<typeof installAccess>['limitIp'] } = {}
  const nextRequestId = requestIds()
  const trust = trustProxy(deps.config.trustProxy)
  /** Hot-link redirects answered before Fastify (set once the services exist). */
  const fast: { redirect?: (req: IncomingMessage, res: ServerResponse) => boolean } = {}
  const connections = createConnectionGuard({
    perIp: deps.config.connectionsPerIp,
    headersTimeoutMs: deps.config.headersTimeoutMs,
    isProxy: trustedProxy(trust),
  })
  const app = Fastify({
    logger: withRequestSerializer(deps.logger),
    // One line per request instead of Fastify's two (http/request-log.ts).
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: nextRequestId,
    serverFactory(handler, options) {
      const server = createServer((req, res) => {
        if (!fast.redirect?.(req, res)) handler(req, res)
      })
      // What Fastify sets on the server it creates itself (the options arrive with its defaults).
      const o = options as Record<
        'keepAliveTimeout' | 'requestTimeout' | 'connectionTimeout' | 'maxRequestsPerSocket',
        number
      >
      server.keepAliveTimeout = o.keepAliveTimeout
      server.requestTimeout = o.requestTimeout
      server.setTimeout(o.connectionTimeout)
      if (o.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = o.maxRequestsPerSocket
      // Fastify turns Node's whole-request bound off; a body trickled forever would hold a socket.
      if (server.requestTimeout === 0) server.requestTimeout = REQUEST_TIMEOUT_MS
      connections.attach(server)
      return server
    },
    schemaController: lazyCompilers(),
    trustProxy: trust,
    bodyLimit: deps.config.bodyLimitBytes,
    frameworkErrors: frameworkErrorHandler(() => access.limitIp),
    clientErrorHandler,
    ajv: {
      // unicodeRegExp false: patterns run over UTF-16 code units, as every OpenAPI reader runs them
      // (src/contract/text.ts refuses lone surrogates that way).
      customOptions: {
        removeAdditional: false,
        coerceTypes: 'array',
        useDefaults: true,
        allErrors: true,
        unicodeRegExp: false,
      },
    },
  })
  app.removeContentTypeParser('text/plain')
  installBodyNestingLimit(app)

  const localLimiter = createMemoryRateLimitStore()
  const limiter =
    deps.limiter ??
    (deps.db.dialect === 'postgres'
      ? createDatabaseRateLimitStore(deps.db.pool)
      : inProcessQuotas(localLimiter))
  const c = await compose({ ...deps, clock, log: app.log, limiter })

  let sweeper: NodeJS.Timeout | undefined
  app.decorate('linkd', {
    services: c.services,
    scheduler: c.scheduler,
    metrics: c.metrics,
    limiter,
    localLimiter,
    connections,
    startBackground() {
      c.start()
      sweeper = setInterval(() => {
        localLimiter.sweep(clock.now())
        Promise.resolve(limiter.sweep?.(clock.now())).catch((err: unknown) =>
          app.log.warn({ err }, 'rate-limit sweep failed'),
        )
      }, 60_000).unref()
    },
  })
  app.addHook('onClose', async () => {
    if (sweeper) clearInterval(sweeper)
    await c.stop()
  })

  installRequestLog(app)
  app.decorateRequest('receivedAt', 0)
  app.addHook('onRequest', (request, reply, done) => {
    request.receivedAt = performance.now()
    reply.header('x-request-id', request.id)
    reply.header('x-content-type-options', 'nosniff')
    done()
  })
  installErrorHandling(app)
  access.limitIp = installAccess(app, {
    clock,
    limiter,
    localLimiter,
    perIpPerMinute: deps.config.rateLimitPerIp,
    redirectsPerIpPerMinute: deps.config.rateLimitRedirectsPerIp,
    perOrgPerMinute: deps.config.rateLimitPerOrg,
    perMemberPerMinute: deps.config.rateLimitPerMember,
    ...c.access,
  }).limitIp
  installIdempotency(app, { store: c.services.idempotency, clock })
  for (const m of c.modules) m.hooks?.(app)
  installOpenApi(app, { version: packageVersion(), publicUrl: deps.config.publicUrl })
  for (const m of c.modules) if (m.routes) await app.register(m.routes)
  fast.redirect = c.fastRedirect({ trustProxy: trust, nextRequestId, limiter: localLimiter })
  return app
}
