/**
 * Every service, wired: the one place that creates each store from the database handle and each
 * service from its stores and the services it asks (the ports between modules are closed here).
 * The composition root (composition.ts) plugs them into the server; the offline `linkd`
 * subcommands take `accountServices` alone.
 */
import type { FastifyBaseLogger } from 'fastify'
import type { Config } from './config.js'
import { dateOfDay, type Clock } from './clock.js'
import type { Db } from './db/open.js'
import { createSecretBox } from './crypto.js'
import { EventBus } from './events.js'
import { createChangeFeed } from './db/notify.js'
import { arrayRows } from './db/array-rows.js'
import { openGeo, type Geo } from './geo.js'
import { createIdempotencyStore } from './http/idempotency-store.js'
import type { RateLimitStore } from './http/rate-limit.js'
import { createOrgStore } from './modules/orgs/index.js'
import { createOrgService } from './modules/orgs/index.js'
import { createKeyStore } from './modules/keys/index.js'
import { createKeyService } from './modules/keys/index.js'
import { keyAccess } from './modules/keys/index.js'
import { createTeamService, createTeamStore } from './modules/team/index.js'
import type { TeamService } from './modules/team/index.js'
import { hasScope } from './http/auth.js'
import { createLinkStore } from './modules/links/index.js'
import { createLinkService } from './modules/links/index.js'
import { createSmartLinkService } from './modules/links/index.js'
import { type DestinationGuard, type ShortUrlUse } from './modules/links/index.js'
import { createReservedCodes } from './modules/links/index.js'
import { createDomainStore } from './modules/domains/index.js'
import { createAcmeStore } from './modules/domains/index.js'
import { createDomainDirectory } from './modules/domains/index.js'
import { createDomainService } from './modules/domains/index.js'
import { createAcme } from './modules/domains/index.js'
import { parseResolvers } from './modules/domains/index.js'
import { createClickStore } from './modules/clicks/index.js'
import { createPostgresClickStore } from './modules/clicks/index.js'
import { createClicksService } from './modules/clicks/index.js'
import { createLocator } from './modules/clicks/index.js'
import { createRedirectService } from './modules/redirect/index.js'
import { createWebhookStore } from './modules/webhooks/index.js'
import { createWebhookService } from './modules/webhooks/index.js'
import { createSafetyService, createSafetyStore } from './modules/safety/index.js'
import type { Resolver } from './modules/webhooks/index.js'
import { createGaming } from './modules/gaming/index.js'
import { createAuditStore, createAuditService } from './modules/audit/index.js'
import { createQrCodeService, createQrCodeStore } from './modules/qr-codes/index.js'
import { createExportDestinationStore, createExportsService } from './modules/exports/index.js'
import type { Plan } from '../src/contract/limits.js'

/** What the daemon is built from: settings, the database, the master key, and what tests replace. */
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
  /** File verification of custom domains: port 80 and 5 s unless tests serve files on the loopback. */
  domainFile?: { port?: number; timeoutMs?: number }
  /** Keys SKAN postback signatures verify against (SPKI DER, base64); default Apple's alone. */
  skanPublicKeys?: string[]
  /** Waits between the attempts of a scheduled export's upload (tests shorten them). */
  exportRetryDelaysMs?: number[]
  /**
   * How often the webhook sender looks for what other processes left due: 10 s on PostgreSQL,
   * never on SQLite (one process); tests shorten it.
   */
  webhookSweepMs?: number
}

/** Organizations, API keys and team members: all the offline subcommands need (daemon/admin/context.ts). */
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
  // Keys and team ask each other (a key's owner member; a member's keys): the keys module gets a
  // function, called only after both exist, so it never imports the team module.
  const team: TeamService = createTeamService({
    store: createTeamStore(db.kysely),
    clock,
    events,
    orgs,
    keys: {
      create: (...args) => keys.create(...args),
      get: (...args) => keys.get(...args),
      revokeMemberKeys: (...args) => keys.revokeMemberKeys(...args),
    },
  })
  const keys = createKeyService({
    store: createKeyStore(db.kysely),
    clock,
    events,
    orgs,
    ownerMember: (organizationId) => team.ownerMember(organizationId),
    roleOf: (memberId) => team.roleOf(memberId),
    ...(deps.countryOf ? { countryOf: deps.countryOf } : {}),
  })
  return { orgs, keys, team }
}

/** Every service of the daemon, wired; nothing runs until the composition starts it. */
export function services(deps: CompositionDeps) {
  const { config: c, db, clock, log } = deps
  const events = new EventBus((err, type) => log.error({ err, event: type }, 'event listener failed'))
  const geo = deps.geo ?? openGeo()
  const countryOf = (ip: string) => geo.country(ip)
  const { orgs, keys, team } = accountServices({ config: c, db, clock, events, countryOf })
  const access = keyAccess(keys, (memberId) => team.roleOf(memberId))
  const secrets = createSecretBox(deps.masterKey)
  // Other linkd processes on the same database: what one changes, the others forget (shared-caches.ts).
  const feed = createChangeFeed(db, { onError: (err, what) => log.warn({ err }, what) })
  const domainStore = createDomainStore(db.kysely)
  const directory = createDomainDirectory({ store: domainStore, secrets })
  const ownHosts = [c.shortDomain, new URL(c.publicUrl).host]
  // The routes' first path segments, recorded as they register (linksModule's hook).
  const reserved = createReservedCodes()
  const linkDeps = {
    reserved,
    store: createLinkStore(db.kysely),
    clock,
    events,
    publicUrl: c.publicUrl,
    ownHosts,
    domains: directory,
    // A short URL's QR codes and recent clicks (qr-codes and clicks are built below; asked per PATCH).
    shortUrlUse: {
      qrCodes: async (organizationId: string, link: { id: string; kind: 'link' | 'smart' }) => {
        const page = await qrCodes.list(
          organizationId,
          link.kind === 'smart' ? { smartLinkId: link.id, limit: 10 } : { linkId: link.id, limit: 10 },
        )
        return { total: page.total, first: page.data }
      },
      clicksSince: (linkId: string, since: number) => clicks.humanClicksSince(linkId, since),
    } satisfies ShortUrlUse,
    // The safety lists (built below, on the links service: asked per create and update).
    destinationGuard: {
      assertDestinationsAllowed: (organizationId, destinations) =>
        safety.assertDestinationsAllowed(organizationId, destinations),
      firstMatch: (organizationId, urls) => safety.firstMatch(organizationId, urls),
    } satisfies DestinationGuard,
  }
  const links = createLinkService(linkDeps)
  const smartLinks = createSmartLinkService({
    ...linkDeps,
    // A smart link's gameId names one of the organization's games (gaming is built below); a
    // gameId while gaming is turned off is a 400.
    gameExists: (organizationId, gameId) => gaming.gameExists(organizationId, gameId),
  })
  const safety = createSafetyService({
    store: createSafetyStore(db),
    clock,
    links,
    // Custom domains' root redirects, re-checked with the links (domains is built below).
    domains: {
      rootRedirects: (organizationId) => domains.rootRedirects(organizationId),
      setRootRedirectFlag: (root, flag) => domains.setRootRedirectFlag(root, flag),
    },
    onError: (err, what) => log.error({ err }, `${what} failed`),
  })
  const qrCodes = createQrCodeService({ store: createQrCodeStore(db.kysely), links, clock, events })
  const domains = createDomainService({
    store: domainStore,
    clock,
    events,
    orgs,
    secrets,
    masterKey: deps.masterKey,
    directory,
    detachLinks: (id) => links.detachDomain(id),
    customDomainClicks: (id) => links.customDomainClicks(id),
    checkDestination: (organizationId, url, field) => links.checkDestination(organizationId, url, field),
    resolvers: parseResolvers(c.dnsResolvers),
    cnameTarget: c.cnameTarget ?? c.shortDomain,
    aRecordIp: c.aRecordIp,
    shortDomain: c.shortDomain,
    ownHosts,
    guard: { allowPrivateNetworks: c.webhookAllowPrivateNetworks, allowLoopback: c.webhookAllowLoopback },
    filePort: deps.domainFile?.port,
    fileTimeoutMs: deps.domainFile?.timeoutMs,
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
  // One geolocation for click analytics and `country` rules of links.
  const locate = createLocator(countryOf, c.geoCityDb)
  const clicks = createClicksService({
    store:
      db.dialect === 'sqlite'
        ? createClickStore(db.sqlite, db.kysely, arrayRows(db))
        : createPostgresClickStore(db.kysely, arrayRows(db)),
    links,
    qrCodes,
    events,
    clock,
    masterKey: deps.masterKey,
    locate,
    onError: (err) => log.error({ err }, 'click recording failed'),
    onDrop: (count, err) =>
      log.warn(
        { err, dropped: count, droppedTotal: clicks.recorder.status().dropped },
        'clicks dropped: the database refused their writes',
      ),
    onReadFlushError: (err) => log.warn({ err }, 'click flush before an analytics read failed'),
    // Smart links' attributed installs (gaming is built below; called per request only).
    installs: (organizationId, linkId, fromDay, toDay) =>
      gaming.analytics.linkInstalls(organizationId, linkId, fromDay, toDay),
    installClicks: (organizationId, linkId, fromDay, toDay) =>
      gaming.analytics.linkInstallClicks(organizationId, linkId, fromDay, toDay),
  })
  const redirect = createRedirectService({
    links,
    reserved,
    clicks,
    clock,
    shortDomain: c.shortDomain,
    customDomainOf: (host) => directory.keyOfHost(host),
    countryOf: (ip) => locate(ip).country,
    limiter: deps.limiter,
    events,
  })
  const idempotency = createIdempotencyStore(db.kysely, secrets)
  const audit = createAuditService({ store: createAuditStore(db.kysely), clock })
  const webhooks = createWebhookService({
    store: createWebhookStore(db.kysely, secrets),
    clock,
    secrets,
    orgName: async (id) => (await orgs.get(id)).name,
    publicUrl: c.publicUrl,
    guard: { allowPrivateNetworks: c.webhookAllowPrivateNetworks, allowLoopback: c.webhookAllowLoopback },
    sender: {
      concurrency: c.webhookConcurrency,
      perOrganization: c.webhookConcurrencyPerOrg,
      // Other processes may share a PostgreSQL database: what a dead one left is found within 10 s.
      sweepMs: deps.webhookSweepMs ?? (db.dialect === 'postgres' ? 10_000 : 0),
    },
    log,
    ...(deps.resolve ? { resolve: deps.resolve } : {}),
    announce: (organizationId) => feed.publish('webhooks', organizationId),
  })
  const gaming = createGaming({
    enabled: c.gamingEnabled,
    db,
    clock,
    log,
    secrets,
    limiter: deps.limiter,
    feed,
    countryOf,
    ingestRates: { perClient: c.ingestRateLimitPerClient, perGame: c.ingestRateLimitPerGame },
    ingestQueueMax: c.ingestQueueMax,
    skanHeld: { maxRows: c.skanHeldMax, maxBytes: c.skanHeldMaxBytes },
    ...(deps.skanPublicKeys ? { skanPublicKeys: deps.skanPublicKeys } : {}),
    forgetResponsesNaming: (id) => idempotency.forgetResponsesNaming(id),
    // Install attribution: a click id's click (clicks) and its link's destination (links).
    async clickLookup(organizationId, clickIds) {
      const refs = await clicks.clickRefs(organizationId, clickIds)
      const known = await links.refs(
        organizationId,
        refs.map((r) => r.linkId),
      )
      return refs.flatMap((r) => {
        const link = known.get(r.linkId)
        // The URL the visit went to: its variant's, else the link's (UTM fields come from it).
        const { variant, ...click } = r
        return link ? [{ ...click, destinationUrl: variant ?? link.destinationUrl }] : []
      })
    },
    async linkShortUrls(organizationId, ids) {
      const known = await links.refs(organizationId, ids)
      return new Map([...known].map(([id, l]) => [id, l.shortUrl]))
    },
    organizationOfHost: (host) => directory.organizationOfHost(host),
    async organizationOfKey(raw) {
      const outcome = await access.authenticate(raw)
      return outcome.ok && hasScope(outcome.principal.permissions, 'skan:read')
        ? outcome.principal.organizationId
        : undefined
    },
  })
  // Scheduled exports: the datasets plug in here (clicks always; raw events while gaming is on).
  const dayQuery = (day: number) => ({ startDate: dateOfDay(day), endDate: dateOfDay(day) })
  const exports = createExportsService({
    store: createExportDestinationStore(db.kysely),
    secrets,
    clock,
    datasets: {
      clicks: {
        check: async () => undefined,
        rows: async (organizationId, _gameId, day) =>
          (await clicks.rawClicks(organizationId, dayQuery(day))).rows,
      },
      ...(gaming.enabled
        ? {
            raw_events: {
              lateRows: true,
              check: async (organizationId, gameId) =>
                void (await gaming.analytics.rawEvents(organizationId, gameId ?? '', {})),
              rows: async (organizationId, gameId, day) =>
                (await gaming.analytics.rawEvents(organizationId, gameId ?? '', dayQuery(day))).rows,
            },
          }
        : {}),
    },
    s3: {
      guard: { allowPrivateNetworks: c.webhookAllowPrivateNetworks, allowLoopback: c.webhookAllowLoopback },
      ...(deps.resolve ? { resolve: deps.resolve } : {}),
    },
    ...(deps.exportRetryDelaysMs ? { retryDelaysMs: deps.exportRetryDelaysMs } : {}),
    log,
  })
  return {
    exports,
    events,
    feed,
    orgs,
    keys,
    team,
    access,
    links,
    smartLinks,
    reserved,
    qrCodes,
    redirect,
    clicks,
    idempotency,
    secrets,
    geo,
    webhooks,
    directory,
    domains,
    gaming,
    audit,
    safety,
  }
}
export type Services = ReturnType<typeof services>
