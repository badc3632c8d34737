import type { Module } from '../../module.js'
import { gamingAnalyticsRoutes } from './routes.js'
import type { GamingAnalyticsService } from './service.js'

export { createGamingAnalyticsService, type GamingAnalyticsService } from './service.js'
export { dayRange, optionalDays } from './days.js'

export function gamingAnalyticsModule(deps: { analytics: GamingAnalyticsService }): Module {
  return { name: 'gaming/analytics', routes: gamingAnalyticsRoutes(deps) }
}
