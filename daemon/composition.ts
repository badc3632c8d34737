import type { FastifyBaseLogger } from 'fastify'
import type { Config } from './config.js'
import type { Clock } from './clock.js'
import type { Db } from './db/open.js'
import { createSecretBox } from './crypto.js'
import { EventBus } from './events.js'
import { createChangeFeed } from './db/notify.js'
import { shareCaches } from './shared-caches.js'
import { openGeo, type Geo } from './geo.js'
import { createIdempotencyStore } from './http/idempotency-store.js'
import type { RateLimitStore } from './http/rate-limit.js'
import { createJobStore } from './jobs/store.js'
import { createScheduler } from './jobs/scheduler.js'
import { pruneIdempotencyJob } from './jobs/prune-idempotency.js'
import { RENEW_CERTIFICATES_JOB } from './jobs/domains.js'
import type { Module } from './modules/module.js'
import { createOrgStore } from './modules/orgs/store.js'
import { createOrgService } from './modules/orgs/service.js'
import { createKeyStore } from './modules/keys/store.js'
import { createKeyService } from './modules/keys/service.js'
import { keyAccess, keysModule } from './modules/keys/index.js'
import { hasScope } from './http/auth.js'
import { createLinkStore } from './modules/links/store.js'
import { createLinkService } from './modules/links/service.js'
import { linksModule } from './modules/links/index.js'
import { createDomainStore } from './modules/domains/store.js'
import { createAcmeStore } from './modules/domains/acme-store.js'
import { createDomainDirectory } from './modules/domains/directory.js'
import { createDomainService } from './modules/domains/service.js'
import { createAcme } from './modules/domains/acme.js'
import { parseResolvers } from './modules/domains/dns.js'
import { domainsModule } from './modules/domains/index.js'
import { createClickStore } from './modules/clicks/store.js'
import { createPostgresClickStore } from './modules/clicks/postgres-store.js'
import { createClicksService } from './modules/clicks/service.js'
import { createLocator } from './modules/clicks/location.js'
import { clicksModule } from './modules/clicks/index.js'
import { createRedirectService } from './modules/redirect/service.js'
import { createFastRedirect, type FastRedirectDeps } from './modules/redirect/fast-path.js'
import { redirectModule } from './modules/redirect/index.js'
import { createWebhookStore } from './modules/webhooks/store.js'
import { createWebhookService } from './modules/webhooks/service.js'
import { webhooksModule } from './modules/webhooks/index.js'
import type { Resolver } from './modules/webhooks/ssrf.js'
import { createGameStore } from './modules/games/store.js'
import { createGameService } from './modules/games/service.js'
import { gamesModule } from './modules/games/index.js'
import { createGamedataStore } from './modules/gamedata/store.js'
import { createPostgresGamedataStore } from './modules/gamedata/store-postgres.js'
import { createGamedataMaintenanceStore } from './modules/gamedata/maintenance-store.js'
import { lockPlayer } from './modules/gamedata/locks-store-postgres.js'
import { createAggregatesStore } from './modules/gamedata/aggregates-store.js'
import { createGamedataService } from './modules/gamedata/service.js'
import { createAcquisitionStore } from './modules/gamedata/acquisition-store.js'
import { createPlayersStore } from './modules/gamedata/players-store.js'
import { gamedataModule } from './modules/gamedata/index.js'
import { createIngestStore } from './modules/ingest/store.js'
import { createPostgresIngestStore } from './modules/ingest/store-postgres.js'
import { createIngestService } from './modules/ingest/service.js'
import { ingestModule } from './modules/ingest/index.js'
import { createGamingAnalyticsService } from './modules/gaming-analytics/service.js'
import { gamingAnalyticsModule } from './modules/gaming-analytics/index.js'
import { createGdprStore } from './modules/gdpr/store.js'
import { createGdprService } from './modules/gdpr/service.js'
import { gdprModule } from './modules/gdpr/index.js'
import { createHealthStore } from './modules/health/store.js'
import { createHealthService } from './modules/health/service.js'
import { healthModule } from './modules/health/index.js'
import { createFraudStore } from './modules/fraud/store.js'
import { createFraudService } from './modules/fraud/service.js'
import { fraudModule } from './modules/fraud/index.js'
import { createFraudStage } from './modules/fraud/stage.js'
import { createFraudEventsStore } from './modules/fraud/events-store.js'
import { createPostgresFraudEventsStore } from './modules/fraud/events-store-postgres.js'
import { createFraudEventsService } from './modules/fraud/events-service.js'
import { createDetectorState } from './modules/fraud/detectors/state.js'
import { createDetectorStateStore, createStateSaver } from './modules/fraud/detectors/state-store.js'
import { createSkanStore } from './modules/skan/store.js'
import { createSkanService } from './modules/skan/service.js'
import { skanModule } from './modules/skan/index.js'
import { createOptimizeService } from './modules/skan/optimize-service.js'
import { APPLE_SKAN_PUBLIC_KEY, publicKeyOf } from './modules/skan/postback.js'
import { packageVersion } from '../src/version.js'
import type { Plan } from '../src/contract/limits.js'

/**
 * The composition root: the one place that creates every store from the database handle, every
 * service from its stores and the services it asks, and each module's plug-in (routes, jobs,
 * event subscriptions). daemon/app.ts builds the HTTP server from what `compose` returns; the
 * offline `linkd` subcommands take `accountServices` alone.
 */
export interface CompositionDeps {
  config: Config
  db: Db
  masterKey: Buffer
  clock: Clock
  log: FastifyBaseLogger
  limiter: RateLimitStore
  /** IP geolocation; defaults to the database shipped in the npm package. */
  geo?: Geo
  /** DNS resolution of webhook targets (tests pass their own). */
  resolve?: Resolver
  /** Keys SKAN postback signatures verify against (SPKI DER, base64); default Apple's alone. */
  skanPublicKeys?: string[]
}

/** Organizations and API keys: all the offline subcommands need (daemon/admin/context.ts). */
export function accountServices(deps: {
  config: Config
  db: Db
  clock: Clock
  events: EventBus
  countryOf?: (ip: string) => string | null
}) {
  const { db, clock, events } = deps
  const orgs = createOrgService({
    store: createOrgStore(db.kysely),
    clock,
    defaultPlan: deps.config.defaultPlan as Plan,
  })
  const keys = createKeyService({
    store: createKeyStore(db.kysely),
    clock,
    events,
    orgs,
    ...(deps.countryOf ? { countryOf: deps.countryOf } : {}),
  })
  return { orgs, keys }
}

function services(deps: CompositionDeps) {
  const { config: c, db, clock, log } = deps
  const events = new EventBus((err, type) => log.error({ err, event: type }, 'event listener failed'))
  const geo = deps.geo ?? openGeo()
  const countryOf = (ip: string) => geo.country(ip)
  const { orgs, keys } = accountServices({ config: c, db, clock, events, countryOf })
  const secrets = createSecretBox(deps.masterKey)
  // Other linkd processes on the same database: what one changes, the others forget (shared-caches.ts).
  const feed = createChangeFeed(db, { onError: (err, what) => log.warn({ err }, what) })
  const domainStore = createDomainStore(db.kysely)
  const directory = createDomainDirectory({ store: domainStore, secrets })
  const ownHosts = [c.shortDomain, new URL(c.publicUrl).host]
  const links = createLinkService({
    store: createLinkStore(db.kysely),
    clock,
    events,
    publicUrl: c.publicUrl,
    ownHosts,
    domains: directory,
  })
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
    shortDomain: c.shortDomain,
    ownHosts,
    acme:
      c.acmeDirectory === 'off'
        ? undefined
        : createAcme({
            store: createAcmeStore(db.kysely),
            secrets,
            clock,
            directoryUrl: c.acmeDirectory,
            email: c.acmeEmail,
            caFile: c.acmeCaFile,
            precheck: c.acmePrecheck,
          }),
    onError: (err, what) => log.error({ err, what }, 'custom domain work failed'),
    announce: () => feed.publish('domains'),
  })
  const clicks = createClicksService({
    store:
      db.dialect === 'sqlite' ? createClickStore(db.sqlite, db.kysely) : createPostgresClickStore(db.kysely),
    links,
    events,
    clock,
    masterKey: deps.masterKey,
    locate: createLocator(countryOf, c.geoCityDb),
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
    clock,
    shortDomain: c.shortDomain,
    customDomainOf: (host) => directory.keyOfHost(host),
  })
  const idempotency = createIdempotencyStore(db.kysely, secrets)
  const webhooks = createWebhookService({
    store: createWebhookStore(db.kysely, secrets),
    clock,
    secrets,
    orgName: async (id) => (await orgs.get(id)).name,
    publicUrl: c.publicUrl,
    guard: { allowPrivateNetworks: c.webhookAllowPrivateNetworks, allowLoopback: c.webhookAllowLoopback },
    sender: { concurrency: c.webhookConcurrency, perOrganization: c.webhookConcurrencyPerOrg },
    log,
    ...(deps.resolve ? { resolve: deps.resolve } : {}),
    announce: (organizationId) => feed.publish('webhooks', organizationId),
  })
  const games = createGameService({ store: createGameStore(db.kysely), clock, secrets })
  const gamedata = createGamedataService({
    store:
      db.dialect === 'sqlite'
        ? createGamedataStore(db.sqlite, db.kysely)
        : createPostgresGamedataStore(db.kysely),
    maintenance: createGamedataMaintenanceStore(db.kysely, db.dialect === 'postgres' ? { lockPlayer } : {}),
    aggregates: createAggregatesStore(db.kysely),
    acquisition: createAcquisitionStore(db.kysely),
    players: createPlayersStore(db.kysely),
    clock,
    games,
  })
  games.useDataCheck((gameId) => gamedata.players.hasPlayers(gameId))
  const ingest = createIngestService({
    batches:
      db.dialect === 'sqlite'
        ? createIngestStore(db.sqlite, db.kysely)
        : createPostgresIngestStore(db.kysely),
    gamedata,
    clock,
    games,
    limiter: deps.limiter,
    perClientPerMinute: c.ingestRateLimitPerClient,
    perGamePerMinute: c.ingestRateLimitPerGame,
    countryOf,
  })
  const fraud = createFraudService({
    store: createFraudStore(db.kysely),
    clock,
    games,
    announce: (what) => feed.publish('fraud', what),
  })
  games.onFraudEnabled((game) => fraud.enableFor(game))
  // Detector windows live in memory, bounded, saved every 10 s and at stop (survive a restart).
  const fraudState = createDetectorState()
  const fraudStateSaver = createStateSaver(fraudState, createDetectorStateStore(db.kysely), clock, {
    onSkipped: ({ gameId, kind }, err) =>
      log.warn({ err, gameId, kind }, 'fraud detector state: an entry the database refused was skipped'),
  })
  const fraudEventsStore =
    db.dialect === 'sqlite'
      ? createFraudEventsStore(db.sqlite, db.kysely)
      : createPostgresFraudEventsStore(db.kysely)
  ingest.pipeline.use(
    createFraudStage({
      rulesOf: fraud.rulesOf,
      cooldowns: fraud.cooldowns,
      listed: fraud.listed,
      state: fraudState,
      events: fraudEventsStore,
    }),
  )
  gamedata.addPlayerPurger('fraudEvents', (gameId, playerId) =>
    fraudEventsStore.purgePlayer(gameId, playerId),
  )
  gamedata.addPlayerPurger('fraudDetectorState', (gameId, playerId) =>
    fraudStateSaver.forgetPlayer(gameId, playerId),
  )
  const skan = createSkanService({
    store: createSkanStore(db.kysely),
    clock,
    games,
    publicKeys: (deps.skanPublicKeys ?? [APPLE_SKAN_PUBLIC_KEY]).map(publicKeyOf),
    held: { maxRows: c.skanHeldMax, maxBytes: c.skanHeldMaxBytes },
    onDropped(count, sinceStart) {
      log.warn(
        { dropped: count, droppedSinceStart: sinceStart },
        'SKAN: dropped the oldest unverified or unmatched postbacks (LINKD_SKAN_HELD_MAX / _BYTES)',
      )
    },
  })
  // Postbacks follow each game's compacted retention (unmatched ones the default retention).
  gamedata.addCompactedExpirer('skanPostbacks', (gameId, before) => skan.expirePostbacks(gameId, before))
  const skanOptimizer = createOptimizeService({ campaigns: skan, games, history: gamedata.players })
  const gamingAnalytics = createGamingAnalyticsService({
    clock,
    games,
    aggregates: gamedata.aggregates,
    players: gamedata.players,
  })
  const gdpr = createGdprService({
    store: createGdprStore(db.kysely),
    clock,
    games,
    gamedata,
    forgetResponsesNaming: (id) => idempotency.forgetResponsesNaming(id),
  })
  // The fraud events' read side (list, review, dashboard); they expire with the raw events.
  const fraudEvents = createFraudEventsService({
    events: fraudEventsStore,
    blocks: createFraudStore(db.kysely),
    fraudGame: fraud.fraudGame,
    clock,
  })
  gamedata.addRawExpirer('fraudEvents', (gameId, cutoff) => fraudEventsStore.expireBefore(gameId, cutoff))
  return {
    events,
    feed,
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
    fraud,
    fraudStateSaver,
    fraudEvents,
    skan,
    skanOptimizer,
  }
}
export type Services = ReturnType<typeof services>

/** Every store, service and module of the daemon, wired; nothing runs until `start()`. */
export async function compose(deps: CompositionDeps) {
  const { config, clock, log, limiter } = deps
  const svc = services(deps)
  const scheduler = createScheduler({ store: createJobStore(deps.db.kysely), clock, log })
  const health = createHealthService({
    clock,
    version: packageVersion(),
    startedAt: clock.now(),
    store: createHealthStore(deps.db),
    jobs: () => scheduler.status(),
    clicks: () => svc.clicks.recorder.status(),
    skan: () => ({ droppedPostbacks: svc.skan.droppedPostbacks() }),
  })
  // Route registration order (also the order of the OpenAPI document's paths).
  const modules: Module[] = [
    healthModule({ health, publicUrl: config.publicUrl }),
    keysModule({ keys: svc.keys, limiter, clock }),
    linksModule({ links: svc.links, bodyLimitBytes: config.bodyLimitBytes }),
    clicksModule({ clicks: svc.clicks }),
    webhooksModule({ webhooks: svc.webhooks, clock }),
    domainsModule({ domains: svc.domains, directory: svc.directory }),
    gamesModule({ games: svc.games }),
    ingestModule({ ingest: svc.ingest }),
    gamedataModule({ gamedata: svc.gamedata, ingest: svc.ingest }),
    gamingAnalyticsModule({ analytics: svc.gamingAnalytics }),
    gdprModule({ gdpr: svc.gdpr }),
    fraudModule({ fraud: svc.fraud, fraudEvents: svc.fraudEvents }),
    skanModule({
      skan: svc.skan,
      optimizer: svc.skanOptimizer,
      organizationOfHost: (host) => svc.directory.organizationOfHost(host),
      async organizationOfKey(raw) {
        const outcome = await keyAccess(svc.keys).authenticate(raw)
        return outcome.ok && hasScope(outcome.principal.permissions, 'skan:read')
          ? outcome.principal.organizationId
          : undefined
      },
    }),
    redirectModule({ redirect: svc.redirect, clock }),
  ]
  scheduler.register(pruneIdempotencyJob(svc.idempotency, clock))
  for (const m of modules) {
    for (const job of m.jobs ?? []) scheduler.register(job)
    m.subscriptions?.(svc.events)
  }
  shareCaches({
    feed: svc.feed,
    events: svc.events,
    hotLinks: svc.redirect.cache,
    directory: svc.directory,
    webhooks: svc.webhooks,
    fraud: svc.fraud,
    log,
  })
  // Listening before the caches fill: a change made meanwhile is either read or heard.
  await svc.feed.start()
  await svc.directory.refresh()
  await svc.fraud.load()
  await svc.fraudStateSaver.load()

  let domainRefresh: NodeJS.Timeout | undefined
  return {
    services: svc,
    modules,
    scheduler,
    /** Who a presented API key is, and the activity log of authenticated requests. */
    access: keyAccess(svc.keys),
    /** The redirect of hot links answered before Fastify (see modules/redirect/fast-path.ts). */
    fastRedirect: (server: Pick<FastRedirectDeps, 'trustProxy' | 'nextRequestId' | 'limiter'>) =>
      createFastRedirect({
        redirect: svc.redirect,
        clock,
        perIpPerMinute: config.rateLimitRedirectsPerIp,
        log,
        ...server,
      }),

    /** Background work: buffer flushers, webhook sender, job schedule, domain refresh. */
    start(): void {
      svc.keys.usage.start((err) => log.error({ err }, 'usage flush failed'))
      svc.clicks.recorder.start()
      svc.webhooks.start()
      svc.fraudStateSaver.start((err) => log.error({ err }, 'fraud detector state save failed'))
      if (config.jobs) {
        scheduler.start()
        // A daemon that was down may have missed the daily renewal: run it once at start-up too.
        void scheduler
          .runNow(RENEW_CERTIFICATES_JOB)
          .catch((err: unknown) => log.error({ err }, 'renewal failed'))
      }
      // Other instances' domain changes (verification, certificates) reach this one through the
      // change feed at once; this reload is the safety net for a lost notice (30 s).
      domainRefresh = setInterval(() => {
        svc.directory.refresh().catch((err: unknown) => log.error({ err }, 'domain refresh failed'))
        // Other instances' fraud rule and blocklist changes, the same way.
        svc.fraud.load().catch((err: unknown) => log.error({ err }, 'fraud rules refresh failed'))
      }, 30_000).unref()
    },

    /** Stops the background work; the order matters (see each step). */
    async stop(): Promise<void> {
      if (domainRefresh) clearInterval(domainRefresh)
      await svc.feed.stop()
      await scheduler.stop()
      await svc.domains.settled()
      await svc.keys.usage.stop()
      await svc.clicks.recorder.stop()
      // After the click flush and the domain work: their events reach the outbox before the sender stops.
      await svc.webhooks.stop()
      // After the last request (the app closed first): the detector windows it changed are saved.
      await svc.fraudStateSaver.stop()
    },
  }
}
export type Composition = Awaited<ReturnType<typeof compose>>
