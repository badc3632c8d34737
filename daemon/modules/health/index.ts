/** Health probes (`/health*`) and API discovery (`/api/use`); owns no table. */
export type * from './api.js'
import type { HealthService } from './api.js'
import type { Module } from '../module.js'
import { collectRoutes, healthRoutes, type RouteInfo } from './routes.js'
export { createHealthStore } from './store.js'
export { createHealthService } from './service.js'

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
