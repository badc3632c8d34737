import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import type { Config } from './config.js'
import { systemClock, type Clock } from './clock.js'
import type { Db } from './db/open.js'
import { newId, createSecretBox, type SecretBox } from './crypto.js'
import { EventBus } from './events.js'
import { clientErrorHandler, frameworkErrorHandler, installErrorHandling } from './http/errors.js'
import { installAccess } from './http/auth.js'
import { installIdempotency } from './http/idempotency.js'
import { createIdempotencyStore } from './http/idempotency-store.js'
import { installOpenApi } from './http/openapi.js'
import { installBodyNestingLimit } from './http/json-guards.js'
import { lazyCompilers } from './http/lazy-compilers.js'
import { createMemoryRateLimitStore, type RateLimitStore } from './http/rate-limit.js'
import { createOrgService } from './modules/orgs/service.js'
import { createKeyService } from './modules/keys/service.js'
import { keyRoutes } from './modules/keys/routes.js'
import { createLinkService } from './modules/links/service.js'
import { linkRoutes } from './modules/links/routes.js'
import { createRedirectService } from './modules/redirect/service.js'
import { redirectRoutes } from './modules/redirect/routes.js'
import { createFastRedirect } from './modules/redirect/fast-path.js'
import { createClicksService } from './modules/clicks/service.js'
import { createClickStore } from './modules/clicks/store.js'
import { createLocator } from './modules/clicks/location.js'
import { clickRoutes } from './modules/clicks/routes.js'
import { createGameService } from './modules/games/service.js'
import { gameRoutes } from './modules/games/routes.js'
import { createIngestService } from './modules/ingest/service.js'
import { createIngestStore } from './modules/ingest/store.js'
import { createGamedata } from './modules/gamedata/index.js'
import { ingestRoutes } from './modules/ingest/routes.js'
import { createGamingAnalyticsService } from './modules/gaming-analytics/service.js'
import { gamingAnalyticsRoutes } from './modules/gaming-analytics/routes.js'
import { createGdprService } from './modules/gdpr/service.js'
import { gdprRoutes } from './modules/gdpr/routes.js'
import {
  gamingCompactionJob,
  gamingRawRetentionJob,
  gdprDeletionsJob,
  gdprRecordsPurgeJob,
} from './jobs/gaming.js'
import { createHealthService } from './modules/health/service.js'
import { createHealthStore } from './modules/health/store.js'
import { createJobStore } from './jobs/store.js'
import { createOrgStore } from './modules/orgs/store.js'
import { createKeyStore } from './modules/keys/store.js'
import { createLinkStore } from './modules/links/store.js'
import { createDomainStore } from './modules/domains/store.js'
import { createAcmeStore } from './modules/domains/acme-store.js'
import { createWebhookStore } from './modules/webhooks/store.js'
import { createGameStore } from './modules/games/store.js'
import { createGdprStore } from './modules/gdpr/store.js'
import { collectRoutes, healthRoutes } from './modules/health/routes.js'
import { createWebhookService } from './modules/webhooks/service.js'
import { webhookRoutes } from './modules/webhooks/routes.js'
import type { Resolver } from './modules/webhooks/ssrf.js'
import { createScheduler } from './jobs/scheduler.js'
import { pruneWebhookDeliveriesJob } from './jobs/prune-webhook-deliveries.js'
import { expireKeysJob } from './jobs/expire-keys.js'
import { pruneIdempotencyJob } from './jobs/prune-idempotency.js'
import { pruneKeyActivityJob } from './jobs/prune-key-activity.js'
import { expireLinksJob } from './jobs/expire-links.js'
import { purgeDeletedLinkClicksJob } from './jobs/purge-deleted-link-clicks.js'
import { recheckDomainsJob, renewCertificatesJob, RENEW_CERTIFICATES_JOB } from './jobs/domains.js'
import { createDomainDirectory } from './modules/domains/directory.js'
import { createDomainService } from './modules/domains/service.js'
import { createAcme } from './modules/domains/acme.js'
import { parseResolvers } from './modules/domains/dns.js'
import { domainRoutes, installDomainRedirects } from './modules/domains/routes.js'
import { packageVersion } from '../src/version.js'
import { openGeo, type Geo } from './geo.js'
import type { Plan } from '../src/contract/limits.js'

export interface AppDeps {
  config: Config
  db: Db
  masterKey: Buffer
  clock?: Clock
  /** Pino options, or false for no logs (tests). */
  logger?: FastifyServerOptions['logger']
  limiter?: RateLimitStore
  /** IP geolocation; defaults to the database shipped in the npm package. */
  geo?: Geo
  /** DNS resolution of webhook targets (tests pass their own). */
  resolve?: Resolver
}

function services(deps: AppDeps, clock: Clock, log: FastifyInstance['log'], limiter: RateLimitStore) {
  const events = new EventBus((err, type) => log.error({ err, event: type }, 'event listener failed'))
  const orgs = createOrgService({
    store: createOrgStore(deps.db.kysely),
    clock,
    defaultPlan: deps.config.defaultPlan as Plan,
  })
  const geo = deps.geo ?? openGeo()
  const keys = createKeyService({
    store: createKeyStore(deps.db.kysely),
    clock,
    events,
    orgs,
    countryOf: (ip) => geo.country(ip),
  })
  const secrets: SecretBox = createSecretBox(deps.masterKey)
  const domainStore = createDomainStore(deps.db.kysely)
  const directory = createDomainDirectory({ store: domainStore, secrets })
  const links = createLinkService({
    store: createLinkStore(deps.db.kysely),
    clock,
    events,
    publicUrl: deps.config.publicUrl,
    ownHosts: [deps.config.shortDomain, new URL(deps.config.publicUrl).host],
    domains: directory,
  })
  const c = deps.config
  const domains = createDomainService({
    store: domainStore,
    clock,
    events,
    orgs,
    secrets,
    directory,
    detachLinks: (id) => links.detachDomain(id),
    customDomainClicks: (id) => links.customDomainClicks(id),
    resolvers: parseResolvers(c.dnsResolvers),
    cnameTarget: c.cnameTarget ?? c.shortDomain,
    aRecordIp: c.aRecordIp,
    ownHosts: [c.shortDomain, new URL(c.publicUrl).host],
    acme:
      c.acmeDirectory === 'off'
        ? undefined
        : createAcme({
            store: createAcmeStore(deps.db.kysely),
            secrets,
            clock,
            directoryUrl: c.acmeDirectory,
            email: c.acmeEmail,
            caFile: c.acmeCaFile,
            precheck: c.acmePrecheck,
          }),
    onError: (err, what) => log.error({ err, what }, 'custom domain work failed'),
  })
  const clicks = createClicksService({
    store: createClickStore(deps.db.sqlite, deps.db.kysely),
    links,
    events,
    clock,
    masterKey: deps.masterKey,
    locate: createLocator((ip) => geo.country(ip), deps.config.geoCityDb),
    onError: (err) => log.error({ err }, 'click recording failed'),
    onDrop: (count, err) =>
      log.warn(
        { err, dropped: count, droppedTotal: clicks.recorder.status().dropped },
        'clicks dropped: the database refused their writes',
      ),
    onReadFlushError: (err) => log.warn({ err }, 'click flush before an analytics read failed'),
  })
  const redirect = createRedirectService({
    links,
    clicks,
    events,
    clock,
    shortDomain: deps.config.shortDomain,
    customDomainOf: (host) => directory.keyOfHost(host),
  })
  const idempotency = createIdempotencyStore(deps.db.kysely, secrets)
  const webhooks = createWebhookService({
    store: createWebhookStore(deps.db.kysely, secrets),
    clock,
    events,
    secrets,
    orgName: async (id) => (await orgs.get(id)).name,
    publicUrl: deps.config.publicUrl,
    guard: {
      allowPrivateNetworks: deps.config.webhookAllowPrivateNetworks,
      allowLoopback: deps.config.webhookAllowLoopback,
    },
    sender: {
      concurrency: deps.config.webhookConcurrency,
      perOrganization: deps.config.webhookConcurrencyPerOrg,
    },
    log,
    ...(deps.resolve ? { resolve: deps.resolve } : {}),
  })
  const games = createGameService({ store: createGameStore(deps.db.kysely), clock, secrets })
  const gamedata = createGamedata({ sqlite: deps.db.sqlite, db: deps.db.kysely, clock, games })
  const ingest = createIngestService({
    batches: createIngestStore(deps.db.sqlite, deps.db.kysely),
    gamedata,
    clock,
    games,
    limiter,
    requestsPerMinute: deps.config.ingestRateLimitPerGame,
    countryOf: (ip) => geo.country(ip),
  })
  const gamingAnalytics = createGamingAnalyticsService({ clock, games, aggregates: gamedata.aggregates })
  const gdpr = createGdprService({
    store: createGdprStore(deps.db.kysely),
    clock,
    games,
    gamedata,
    forgetResponsesNaming: (id) => idempotency.forgetResponsesNaming(id),
  })
  return {
    events,
    orgs,
    keys,
    links,
    redirect,
    clicks,
    idempotency,
    secrets,
    geo,
    webhooks,
    directory,
    domains,
    games,
    ingest,
    gamedata,
    gamingAnalytics,
    gdpr,
  }
}
export type Services = ReturnType<typeof services>

declare module 'fastify' {
  interface FastifyRequest {
    /** performance.now() when the request arrived (server response time of redirects). */
    receivedAt: number
  }
  interface FastifyInstance {
    linkd: {
      services: Services
      scheduler: ReturnType<typeof createScheduler>
      limiter: RateLimitStore
      /** Starts the background work: job schedule and buffer flushers. Tests leave it off. */
      startBackground(): void
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

/** Request ids: a random per-process prefix and a counter (no randomness on the hot path). */
function requestIds(): () => string {
  const prefix = newId('req')
  let n = 0
  return () => `${prefix}${(++n).toString(36)}`
}

/** Builds the whole HTTP application on the given database. Tests call `app.inject()` on it. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const clock = deps.clock ?? systemClock
  const access: { limitIp?: ReturnType<typeof installAccess>['limitIp'] } = {}
  const nextRequestId = requestIds()
  const trust = trustProxy(deps.config.trustProxy)
  /** Hot-link redirects answered before Fastify (set once the services exist). */
  const fast: { redirect?: (req: IncomingMessage, res: ServerResponse) => boolean } = {}
  const app = Fastify({
    logger: deps.logger ?? false,
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
      return server
    },
    schemaController: lazyCompilers(),
    trustProxy: trust,
    bodyLimit: deps.config.bodyLimitBytes,
    frameworkErrors: frameworkErrorHandler(() => access.limitIp),
    clientErrorHandler,
    ajv: {
      customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true, allErrors: true },
    },
  })
  app.removeContentTypeParser('text/plain')
  installBodyNestingLimit(app)

  const limiter = deps.limiter ?? createMemoryRateLimitStore()
  const svc = services(deps, clock, app.log, limiter)
  const scheduler = createScheduler({ store: createJobStore(deps.db.kysely), clock, log: app.log })
  scheduler.register(expireKeysJob(svc.keys))
  scheduler.register(pruneIdempotencyJob(svc.idempotency, clock))
  scheduler.register(pruneKeyActivityJob(svc.keys))
  scheduler.register(expireLinksJob(svc.links))
  scheduler.register(purgeDeletedLinkClicksJob(svc.clicks))
  scheduler.register(pruneWebhookDeliveriesJob(svc.webhooks))
  scheduler.register(recheckDomainsJob(svc.domains))
  scheduler.register(renewCertificatesJob(svc.domains))
  await svc.directory.refresh()
  scheduler.register(gamingRawRetentionJob(svc.gamedata, svc.ingest))
  scheduler.register(gamingCompactionJob(svc.gamedata))
  scheduler.register(gdprDeletionsJob(svc.gdpr))
  scheduler.register(gdprRecordsPurgeJob(svc.gdpr))

  let sweeper: NodeJS.Timeout | undefined
  let domainRefresh: NodeJS.Timeout | undefined
  app.decorate('linkd', {
    services: svc,
    scheduler,
    limiter,
    startBackground() {
      svc.keys.usage.start((err) => app.log.error({ err }, 'usage flush failed'))
      svc.clicks.recorder.start()
      svc.webhooks.start()
      if (deps.config.jobs) {
        scheduler.start()
        // A daemon that was down may have missed the daily renewal: run it once at start-up too.
        void scheduler
          .runNow(RENEW_CERTIFICATES_JOB)
          .catch((err: unknown) => app.log.error({ err }, 'renewal failed'))
      }
      // Other instances' domain changes (verification, certificates) reach this one within 30 s.
      domainRefresh = setInterval(() => {
        svc.directory.refresh().catch((err: unknown) => app.log.error({ err }, 'domain refresh failed'))
      }, 30_000).unref()
      const sweepable = limiter as Partial<{ sweep(now: number): void }>
      if (sweepable.sweep) sweeper = setInterval(() => sweepable.sweep?.(clock.now()), 60_000).unref()
    },
  })
  app.addHook('onClose', async () => {
    if (sweeper) clearInterval(sweeper)
    if (domainRefresh) clearInterval(domainRefresh)
    await scheduler.stop()
    await svc.domains.settled()
    await svc.keys.usage.stop()
    await svc.clicks.recorder.stop()
    // After the click flush: its link.clicked events reach the outbox before the sender stops.
    await svc.webhooks.stop()
  })

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
    perIpPerMinute: deps.config.rateLimitPerIp,
    redirectsPerIpPerMinute: deps.config.rateLimitRedirectsPerIp,
    perOrgPerMinute: deps.config.rateLimitPerOrg,
    async authenticate(raw) {
      const r = await svc.keys.authenticate(raw)
      if (!r.ok) return r
      const k = r.key
      return {
        ok: true,
        principal: {
          keyId: k.id,
          organizationId: k.organizationId,
          name: k.name,
          permissions: k.permissions,
          requestLimit: k.requestLimit,
          timePeriod: k.timePeriod,
          allowedIps: k.allowedIps,
        },
      }
    },
    onAuthenticatedResponse(request, reply) {
      const p = request.principal
      if (!p) return
      const header = (name: string) => {
        const v = request.headers[name]
        return typeof v === 'string' ? v.slice(0, 512) : null
      }
      svc.keys.record({
        keyId: p.keyId,
        organizationId: p.organizationId,
        endpoint: (request.url.split('?')[0] ?? request.url).slice(0, 512),
        method: request.method,
        statusCode: reply.statusCode,
        responseTimeMs: Math.round(reply.elapsedTime * 100) / 100,
        ip: request.ip,
        userAgent: header('user-agent'),
        referrer: header('referer'),
        error: request.errorInfo?.slice(0, 500) ?? null,
      })
    },
  }).limitIp
  installIdempotency(app, { store: svc.idempotency, clock })
  installDomainRedirects(app, svc.directory)
  installOpenApi(app, { version: packageVersion(), publicUrl: deps.config.publicUrl, clock })

  const routes = collectRoutes(app)
  const startedAt = clock.now()
  const health = createHealthService({
    clock,
    version: packageVersion(),
    startedAt,
    store: createHealthStore(deps.db),
    jobs: () => scheduler.status(),
    clicks: () => svc.clicks.recorder.status(),
  })
  await app.register(healthRoutes({ health, routes, publicUrl: deps.config.publicUrl }))
  await app.register(keyRoutes({ keys: svc.keys, limiter, clock }))
  await app.register(linkRoutes({ links: svc.links, bodyLimitBytes: deps.config.bodyLimitBytes }))
  await app.register(clickRoutes({ clicks: svc.clicks }))
  await app.register(webhookRoutes({ webhooks: svc.webhooks, clock }))
  await app.register(domainRoutes({ domains: svc.domains }))
  await app.register(gameRoutes({ games: svc.games }))
  await app.register(ingestRoutes({ ingest: svc.ingest }))
  await app.register(gamingAnalyticsRoutes({ analytics: svc.gamingAnalytics }))
  await app.register(gdprRoutes({ gdpr: svc.gdpr }))
  await app.register(redirectRoutes({ redirect: svc.redirect, clock }))
  fast.redirect = createFastRedirect({
    redirect: svc.redirect,
    clock,
    limiter,
    perIpPerMinute: deps.config.rateLimitRedirectsPerIp,
    trustProxy: trust,
    nextRequestId,
    log: app.log,
  })
  return app
}
