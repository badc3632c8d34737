import type { Module } from '../module.js'
import { optimizeRoutes } from './optimize-routes.js'
import type { OptimizeService } from './optimize-service.js'
import { skanRoutes } from './routes.js'
import type { SkanService } from './service.js'

export function skanModule(deps: {
  skan: SkanService
  optimizer: OptimizeService
  /** The organization of a verified custom domain (the domain directory). */
  organizationOfHost(host: string): string | undefined
  /** The organization of a presented API key holding skan:read, if any (never a 401). */
  organizationOfKey(raw: string | undefined): Promise<string | undefined>
}): Module {
  const campaigns = skanRoutes(deps)
  const optimize = optimizeRoutes(deps)
  return {
    name: 'skan',
    routes: async (app) => {
      await campaigns(app)
      await optimize(app)
    },
  }
}
