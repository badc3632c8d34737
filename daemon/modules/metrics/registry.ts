import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'

/**
 * What the metrics read at scrape time from the other modules (numbers their index.ts exposes),
 * so that no hot path does any work for them. Each is optional: a test app may leave one out.
 */
export interface MetricsSources {
  /** The click recorder: handed over (one per redirect), written, waiting, dropped since start. */
  clicks?(): { received: number; recorded: number; buffered: number; dropped: number }
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

/**
 * One prom-client Registry per app: tests build many apps in one process, so the global default
 * registry is never used. Process metrics carry the `linkd_` prefix.
 */
export function createMetrics(sources: MetricsSources = {}) {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry, prefix: 'linkd_' })

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

  return {
    registry,
    /** One answered request (an onResponse hook); `route` is the pattern, '' when none matched. */
    observeRequest(route: string, method: string, status: number, seconds: number): void {
      const labels = { route, method, status: String(status) }
      requests.inc(labels)
      durations.observe(labels, seconds)
    },
  }
}
export type Metrics = ReturnType<typeof createMetrics>
