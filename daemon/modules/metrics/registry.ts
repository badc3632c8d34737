import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'
import { DAY_MS } from '../../clock.js'

/**
 * What the metrics read at scrape time from the other modules (numbers their index.ts exposes),
 * so that no hot path does any work for them. Each but `now` is optional.
 */
export interface MetricsSources {
  /** The click recorder: handed over (one per redirect), written, waiting, dropped since start. */
  clicks?(): { received: number; recorded: number; buffered: number; dropped: number }
  /** Ingestion totals; `rejected` by the events' error code (a fixed set). flagged/blocked: fraud. */
  ingest?(): {
    batches: number
    accepted: number
    flagged: number
    blocked: number
    duplicates: number
    rejected: ReadonlyMap<string, number>
  }
  /** Events of batches being stored now, and batches refused because there were too many (503). */
  ingestQueue?(): { events: number; refused: number }
  /** Webhook attempts judged by this process, by outcome. */
  webhookAttempts?(): { success: number; retry: number; failed: number }
  /** Deliveries pending and webhooks suspended (a query per scrape). */
  webhookTotals?(): Promise<{ backlog: number; suspended: number }>
  /** Per registered job: runs and failures in this process, the last success (Unix ms) anywhere. */
  jobs?(): Promise<Array<{ name: string; runs: number; failures: number; lastSuccessAt: number | null }>>
  /** Every certificate's domain and expiry (Unix ms); the domains table bounds the labels. */
  certificates?(): Promise<Array<{ domain: string; expiresAt: number }>>
  /** The PostgreSQL pool: connections open, idle, and queries waiting for one; undefined on SQLite. */
  pool?(): { total: number; idle: number; waiting: number } | undefined
  /** QR PNGs a render worker is drawing, and those waiting for one. */
  qrRenders?(): { running: number; queued: number }
  /** SQLite's read workers (funnels): undefined on PostgreSQL and in memory. */
  dbReads?(): { running: number; queued: number } | undefined
  /** Now (Unix ms, the injected clock), for the days left on certificates. */
  now(): number
}

/**
 * One read shared by the families it fills: prom-client collects every family of a scrape at
 * once (Promise.all), so the families asking while the read is in flight share its answer.
 */
function shared<T>(read: () => Promise<T> | undefined): () => Promise<T | undefined> {
  let inFlight: Promise<T | undefined> | undefined
  return () =>
    (inFlight ??= Promise.resolve(read()).finally(() => {
      inFlight = undefined
    }))
}

/** Seconds; the redirect budget is milliseconds, the slowest reports several seconds. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

/** A counter whose value is read from a module at scrape time (monotonic since start). */
function readCounter(registry: Registry, name: string, help: string, read: () => number | undefined) {
  return new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      const v = read()
      if (v !== undefined) {
        this.reset()
        this.inc(v)
      }
    },
  })
}

function readGauge(registry: Registry, name: string, help: string, read: () => number | undefined) {
  return new Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      const v = read()
      if (v !== undefined) this.set(v)
    },
  })
}

/** A gauge by `state`, each state's value read from a module at scrape time. */
function readStateGauge(
  registry: Registry,
  name: string,
  help: string,
  read: () => Record<string, number> | undefined,
) {
  return new Gauge({
    name,
    help,
    labelNames: ['state'],
    registers: [registry],
    collect() {
      for (const [state, v] of Object.entries(read() ?? {})) this.set({ state }, v)
    },
  })
}

/**
 * prom-client's gauges of active libuv handles, requests and resources in all: gauges named like
 * counters (`_total`), which `promtool check metrics` refuses. Their per-type gauges
 * (`linkd_nodejs_active_handles{type}`, …) stay; a sum of those is the total.
 */
const MISNAMED_DEFAULTS = ['handles', 'requests', 'resources'].map((n) => `linkd_nodejs_active_${n}_total`)

/**
 * One prom-client Registry per app: tests build many apps in one process, so the global default
 * registry is never used. Process metrics carry the `linkd_` prefix.
 */
export function createMetrics(sources: MetricsSources) {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry, prefix: 'linkd_' })
  for (const name of MISNAMED_DEFAULTS) registry.removeSingleMetric(name)

  // HTTP, by route pattern (never the raw URL: bounded labels; unmatched: ''), method, status.
  // Redirects answered by the fast path never reach Fastify: linkd_redirects_total counts them.
  const labelNames = ['route', 'method', 'status'] as const
  const requests = new Counter({
    name: 'linkd_http_requests_total',
    help: 'HTTP requests answered by the router (not the redirect fast path), by route pattern, method and status',
    labelNames,
    registers: [registry],
  })
  const durations = new Histogram({
    name: 'linkd_http_request_duration_seconds',
    help: 'Time to answer an HTTP request (router only), by route pattern, method and status',
    labelNames,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  })

  const clicks = () => sources.clicks?.()
  readCounter(
    registry,
    'linkd_redirects_total',
    'Redirects answered (fast path and router), counted as their clicks reach the recorder',
    () => clicks()?.received,
  )
  readCounter(
    registry,
    'linkd_clicks_recorded_total',
    'Clicks written to the database',
    () => clicks()?.recorded,
  )
  readCounter(
    registry,
    'linkd_clicks_dropped_total',
    'Clicks dropped: the database refused their writes too long',
    () => clicks()?.dropped,
  )
  readGauge(registry, 'linkd_clicks_buffered', 'Clicks waiting to be written', () => clicks()?.buffered)

  const ingest = () => sources.ingest?.()
  readCounter(
    registry,
    'linkd_ingest_batches_total',
    'Ingestion batches stored (replays excluded)',
    () => ingest()?.batches,
  )
  readCounter(
    registry,
    'linkd_ingest_events_accepted_total',
    'Events stored, flagged ones included',
    () => ingest()?.accepted,
  )
  readCounter(
    registry,
    'linkd_ingest_events_duplicate_total',
    'Events already stored (same event id)',
    () => ingest()?.duplicates,
  )
  readCounter(
    registry,
    'linkd_fraud_events_flagged_total',
    'Events stored but flagged by fraud rules',
    () => ingest()?.flagged,
  )
  readCounter(
    registry,
    'linkd_fraud_events_blocked_total',
    'Events refused by fraud rules or the blocklist',
    () => ingest()?.blocked,
  )
  new Counter({
    name: 'linkd_ingest_events_rejected_total',
    help: 'Events refused by the checks, by error code',
    labelNames: ['reason'],
    registers: [registry],
    collect() {
      const c = ingest()
      if (!c) return
      this.reset()
      for (const [reason, n] of c.rejected) this.inc({ reason }, n)
    },
  })

  readGauge(
    registry,
    'linkd_ingest_queue_events',
    'Events of ingestion batches being stored (waiting for or in a commit)',
    () => sources.ingestQueue?.().events,
  )
  readCounter(
    registry,
    'linkd_ingest_batches_refused_total',
    'Ingestion batches refused with 503 because the queue of batches being stored was full',
    () => sources.ingestQueue?.().refused,
  )
  // Pushed by the SQLite group commit as each group becomes durable.
  const groupBatches = new Histogram({
    name: 'linkd_ingest_group_batches',
    help: 'Ingestion batches committed together in one transaction and sync (SQLite)',
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
    registers: [registry],
  })
  const groupWrite = new Histogram({
    name: 'linkd_ingest_group_write_seconds',
    help: 'Time to write a group of ingestion batches, BEGIN to COMMIT, on the event loop (SQLite)',
    buckets: DURATION_BUCKETS,
    registers: [registry],
  })
  const groupSync = new Histogram({
    name: 'linkd_ingest_group_sync_seconds',
    help: 'Time from a group COMMIT until it is durable: the WAL sync, off the event loop (SQLite)',
    buckets: DURATION_BUCKETS,
    registers: [registry],
  })

  new Counter({
    name: 'linkd_webhook_attempts_total',
    help: 'Webhook delivery attempts judged by this process, by outcome (success, retry: failed and retried later, failed: no retry left)',
    labelNames: ['outcome'],
    registers: [registry],
    collect() {
      const a = sources.webhookAttempts?.()
      if (!a) return
      this.reset()
      for (const outcome of ['success', 'retry', 'failed'] as const) this.inc({ outcome }, a[outcome])
    },
  })
  const webhookTotals = shared(() => sources.webhookTotals?.())
  new Gauge({
    name: 'linkd_webhook_backlog',
    help: 'Webhook deliveries pending (due or waiting to retry), all organizations',
    registers: [registry],
    async collect() {
      const t = await webhookTotals()
      if (t) this.set(t.backlog)
    },
  })
  new Gauge({
    name: 'linkd_webhooks_suspended',
    help: 'Webhooks suspended after consecutive failed deliveries, all organizations',
    registers: [registry],
    async collect() {
      const t = await webhookTotals()
      if (t) this.set(t.suspended)
    },
  })

  // Jobs: one read fills the three families, each a value per job.
  const jobs = shared(() => sources.jobs?.())
  type JobRow = NonNullable<Awaited<ReturnType<typeof jobs>>>[number]
  const perJob = (
    Family: typeof Counter | typeof Gauge,
    name: string,
    help: string,
    value: (j: JobRow) => number | null,
  ) =>
    new Family({
      name,
      help,
      labelNames: ['job'],
      registers: [registry],
      async collect() {
        const all = await jobs()
        if (!all) return
        this.reset()
        for (const j of all) {
          const v = value(j)
          if (v === null) continue
          if (this instanceof Counter) this.inc({ job: j.name }, v)
          else (this as Gauge).set({ job: j.name }, v)
        }
      },
    })
  perJob(Counter, 'linkd_job_runs_total', 'Job runs by this process, by job', (j) => j.runs)
  perJob(
    Counter,
    'linkd_job_failures_total',
    'Job runs by this process that failed, by job',
    (j) => j.failures,
  )
  perJob(
    Gauge,
    'linkd_job_last_success_timestamp_seconds',
    'When the job last succeeded (any process on this database), Unix seconds',
    (j) => (j.lastSuccessAt === null ? null : j.lastSuccessAt / 1000),
  )

  new Gauge({
    name: 'linkd_certificate_expiry_days',
    help: 'Days until the certificate of a custom domain expires (negative: expired)',
    labelNames: ['domain'],
    registers: [registry],
    async collect() {
      const certs = await sources.certificates?.()
      if (!certs) return
      const now = sources.now()
      this.reset()
      for (const c of certs) this.set({ domain: c.domain }, (c.expiresAt - now) / DAY_MS)
    },
  })

  readStateGauge(
    registry,
    'linkd_db_pool_connections',
    'PostgreSQL pool connections by state (open, idle), and queries waiting for one (waiting)',
    () => {
      const p = sources.pool?.()
      return p && { open: p.total, idle: p.idle, waiting: p.waiting }
    },
  )
  readStateGauge(
    registry,
    'linkd_qr_renders',
    'QR PNGs a render worker is drawing (running), and those waiting for one (queued)',
    () => sources.qrRenders?.(),
  )
  readStateGauge(
    registry,
    'linkd_db_reads',
    'SQLite reads (funnels) a read worker is running (running), and those waiting for one (queued)',
    () => sources.dbReads?.(),
  )

  // SQLite's background checkpointer (started by main.ts, outside the app): set once it exists.
  let checkpointer: (() => { active: boolean; runs: number }) | undefined
  readGauge(
    registry,
    'linkd_sqlite_checkpointer_active',
    'SQLite: 1 while WAL checkpoints run on their worker thread, 0 when commits checkpoint again',
    () => (checkpointer ? Number(checkpointer().active) : undefined),
  )
  readCounter(
    registry,
    'linkd_sqlite_checkpoints_total',
    'SQLite: background WAL checkpoints that copied pages',
    () => checkpointer?.().runs,
  )

  return {
    registry,
    /** The SQLite checkpointer of this process (daemon/main.ts starts it after the app). */
    watchCheckpointer(read: () => { active: boolean; runs: number }): void {
      checkpointer = read
    },
    /** One group of ingestion batches, durable (SQLite's group commit). */
    observeIngestGroup(group: { units: number; writeMs: number; syncMs: number }): void {
      groupBatches.observe(group.units)
      groupWrite.observe(group.writeMs / 1000)
      groupSync.observe(group.syncMs / 1000)
    },
    /** One answered request (an onResponse hook); `route` is the pattern, '' when none matched. */
    observeRequest(route: string, method: string, status: number, seconds: number): void {
      const labels = { route, method, status: String(status) }
      requests.inc(labels)
      durations.observe(labels, seconds)
    },
  }
}
export type Metrics = ReturnType<typeof createMetrics>
