import { collectDefaultMetrics, Registry } from 'prom-client'

/** What the metrics read at scrape time from the other modules (their index.ts numbers). */
export interface MetricsSources {
  placeholder?: never
}

/**
 * One prom-client Registry per app: tests build many apps in one process, so the global default
 * registry is never used. Process metrics carry the `linkd_` prefix.
 */
export function createMetrics(_sources: MetricsSources = {}) {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry, prefix: 'linkd_' })
  return { registry }
}
export type Metrics = ReturnType<typeof createMetrics>
