/**
 * Prometheus metrics at `GET /metrics` (prom-client); owns no table. Reads the other modules'
 * numbers at scrape time through what their index.ts exposes. Why and what is counted where:
 * docs/decisions/metrics.md.
 */
import type { Module } from '../module.js'
import type { Metrics } from './registry.js'
import { metricsRoutes } from './routes.js'

export { createMetrics, type Metrics, type MetricsSources } from './registry.js'

/** The route; `token` is LINKD_METRICS_TOKEN (when set, required from every client). */
export function metricsModule(deps: { metrics: Metrics; token?: string | undefined }): Module {
  return {
    name: 'metrics',
    hooks(app) {
      app.addHook('onResponse', (request, reply, done) => {
        deps.metrics.observeRequest(
          request.routeOptions.url ?? '',
          request.method,
          reply.statusCode,
          reply.elapsedTime / 1000,
        )
        done()
      })
    },
    routes: (app) => metricsRoutes(deps)(app),
  }
}
