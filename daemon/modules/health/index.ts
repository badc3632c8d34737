/** Health probes (`/health*`) and API discovery (`/api/use`); owns no table. */
export { createHealthStore } from './store.js'
export { createHealthService } from './service.js'
import type { Health } from '../../../src/contract/health.js'
import type { Module } from '../module.js'
import { collectRoutes, healthRoutes, type RouteInfo } from './routes.js'

export interface HealthService {
  /** Liveness: database answers and migrations applied ('ok'), else 'down'. */
  summary(): Promise<Health>
  /** Readiness: 503 while the database is down or migrations are pending; jobs, clicks and SKAN status. */
  ready(): Promise<Health>
}

/** Health and discovery: its hook lists every documented /api route registered after it. */
export function healthModule(deps: {
  health: HealthService
  publicUrl: string
  /** What discovery says is on (gaming: NEXT_PUBLIC_FEATURE_GAMING_INTELLIGENCE_ENABLED). */
  features: { gaming: boolean }
}): Module {
  let routes: RouteInfo[] = []
  return {
    name: 'health',
    hooks(app) {
      routes = collectRoutes(app)
    },
    routes: (app) => healthRoutes({ ...deps, routes })(app),
  }
}
