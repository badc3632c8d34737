export { createHealthStore } from './store.js'
export { createHealthService } from './service.js'
import type { Module } from '../module.js'
import { collectRoutes, healthRoutes, type RouteInfo } from './routes.js'
import type { HealthService } from './service.js'

/** Health and discovery: its hook lists every documented /api route registered after it. */
export function healthModule(deps: { health: HealthService; publicUrl: string }): Module {
  let routes: RouteInfo[] = []
  return {
    name: 'health',
    hooks(app) {
      routes = collectRoutes(app)
    },
    routes: (app) => healthRoutes({ ...deps, routes })(app),
  }
}
