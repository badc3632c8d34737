/** Gaming analytics: a game's reports and exports, read from the storage layers (no table of its own). */
export type * from './api.js'
import type { GamingAnalyticsService } from './api.js'
import type { Module } from '../../module.js'
import { gamingAnalyticsRoutes } from './routes.js'

export { createGamingAnalyticsService } from './service.js'
export { dayRange, optionalDays } from './days.js'

/** One game's attributed installs of a link and their revenue (LinkAnalytics.installRevenue). */
export type { LinkShortUrls } from './attribution.js'

export function gamingAnalyticsModule(deps: { analytics: GamingAnalyticsService }): Module {
  return { name: 'gaming/analytics', routes: gamingAnalyticsRoutes(deps) }
}
