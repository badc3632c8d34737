/**
 * The composition root: the services (services.ts) plugged into the server: each module's plug-in
 * (routes in registration order, jobs, event subscriptions), health and metrics, the caches shared
 * with other processes, and the background work's start and stop. daemon/app.ts builds the HTTP
 * server from what `compose` returns.
 */
import { shareCaches } from './shared-caches.js'
import { createJobStore } from './jobs/store.js'
import { createScheduler } from './jobs/scheduler.js'
import { pruneIdempotencyJob } from './jobs/prune-idempotency.js'
import { RENEW_CERTIFICATES_JOB } from './modules/domains/index.js'
import type { Module } from './modules/module.js'
import { keysModule } from './modules/keys/index.js'
import { teamModule } from './modules/team/index.js'
import { linksModule } from './modules/links/index.js'
import { domainsModule } from './modules/domains/index.js'
import { clicksModule } from './modules/clicks/index.js'
import { createFastRedirect, type FastRedirectDeps } from './modules/redirect/index.js'
import { redirectModule, sendFlaggedRoot } from './modules/redirect/index.js'
import { webhooksModule } from './modules/webhooks/index.js'
import { safetyModule } from './modules/safety/index.js'
import { createHealthStore } from './modules/health/index.js'
import { createHealthService } from './modules/health/index.js'
import { healthModule } from './modules/health/index.js'
import { auditModule } from './modules/audit/index.js'
import { qrCodesModule } from './modules/qr-codes/index.js'
import { createMetrics, metricsModule } from './modules/metrics/index.js'
import { renderStats } from './qr/index.js'
import { exportsModule } from './modules/exports/index.js'
import { services, type CompositionDeps } from './services.js'
import { packageVersion } from '../src/version.js'

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
    skan: () => ({ droppedPostbacks: svc.gaming.skan.droppedPostbacks() }),
  })
  const { recorder } = svc.clicks
  const metrics = createMetrics({
    clicks: () => ({ ...recorder.status(), received: recorder.received, recorded: recorder.recorded }),
    ingest: () => svc.gaming.ingest.counts(),
    ingestQueue: () => svc.gaming.storage.queue(),
    webhookAttempts: () => svc.webhooks.worker.attempts,
    webhookTotals: () => svc.webhooks.totals(),
    async jobs() {
      // Runs and failures: this process's; the last success: job_runs (any process), or this one's.
      const runs = new Map((await scheduler.status()).map((r) => [r.name, r]))
      return scheduler.counts().map((c) => {
        const r = runs.get(c.name)
        const stored = r?.lastStatus === 'ok' ? r.lastRunAt : null
        return { ...c, lastSuccessAt: Math.max(stored ?? 0, c.lastSuccessAt ?? 0) || null }
      })
    },
    certificates: () => svc.domains.certificateExpiries(),
    qrRenders: renderStats,
    dbReads: () => (deps.db.dialect === 'sqlite' ? deps.db.readPool()?.stats() : undefined),
    pool: () =>
      deps.db.dialect === 'postgres'
        ? { total: deps.db.pool.totalCount, idle: deps.db.pool.idleCount, waiting: deps.db.pool.waitingCount }
        : undefined,
    now: () => clock.now(),
  })
  svc.gaming.storage.watchGroups((group) => metrics.observeIngestGroup(group))
  // Route registration order (also the order of the OpenAPI document's paths).
  const modules: Module[] = [
    healthModule({ health, publicUrl: config.publicUrl, features: { gaming: svc.gaming.enabled } }),
    metricsModule({ metrics, token: config.metricsToken }),
    keysModule({ keys: svc.keys, limiter, clock }),
    teamModule({ team: svc.team }),
    auditModule({ audit: svc.audit }),
    linksModule({
      links: svc.links,
      smartLinks: svc.smartLinks,
      bodyLimitBytes: config.bodyLimitBytes,
      reserved: svc.reserved,
    }),
    qrCodesModule({ qrCodes: svc.qrCodes, bodyLimitBytes: config.bodyLimitBytes }),
    clicksModule({ clicks: svc.clicks }),
    webhooksModule({ webhooks: svc.webhooks, clock }),
    safetyModule({ safety: svc.safety }),
    domainsModule({ domains: svc.domains, directory: svc.directory, flaggedRoot: sendFlaggedRoot }),
    exportsModule({ exports: svc.exports }),
    ...svc.gaming.modules,
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
    log,
  })
  // Listening before the caches fill: a change made meanwhile is either read or heard.
  await svc.feed.start()
  await svc.directory.refresh()
  await svc.gaming.load()

  let domainRefresh: NodeJS.Timeout | undefined
  return {
    services: svc,
    modules,
    metrics,
    scheduler,
    /** Who a presented API key is, and the activity log of authenticated requests. */
    access: svc.access,
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
      svc.audit.start((err) => log.error({ err }, 'audit log flush failed'))
      svc.clicks.recorder.start()
      svc.webhooks.start()
      svc.gaming.start()
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
      }, 30_000).unref()
    },

    /** Stops the background work; the order matters (see each step). */
    async stop(): Promise<void> {
      if (domainRefresh) clearInterval(domainRefresh)
      await svc.feed.stop()
      await scheduler.stop()
      await svc.domains.settled()
      await svc.safety.settled()
      await svc.keys.usage.stop()
      await svc.audit.stop()
      await svc.clicks.recorder.stop()
      // After the click flush and the domain work: their events reach the outbox before the sender stops.
      await svc.webhooks.stop()
      // After the last request (the app closed first): the detector windows it changed are saved.
      await svc.gaming.stop()
    },
  }
}
export type Composition = Awaited<ReturnType<typeof compose>>
