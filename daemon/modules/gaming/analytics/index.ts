import type { Module } from '../../module.js'
import { gamingAnalyticsRoutes } from './routes.js'
import type { GamingAnalyticsService } from './service.js'

export {
  createGamingAnalyticsService,
  dayRange,
  optionalDays,
  type GamingAnalyticsService,
} from './service.js'

export function gamingAnalyticsModule(deps: { analytics: GamingAnalyticsService }): Module {
  return { name: 'gaming/analytics', routes: gamingAnalyticsRoutes(deps) }
}
