/** Click recording and analytics; owns `clicks`, `link_click_*`, `link_day_*` and `org_click_days`. */
export type * from './api.js'
import type { ClicksService } from './api.js'
import type { Module } from '../module.js'
import { purgeDeletedLinkClicksJob } from './jobs.js'
import { clickRoutes } from './routes.js'
export { createClickStore } from './store.js'
export { createPostgresClickStore } from './postgres-store.js'
export { createClicksService } from './service.js'
export { type ClickInput, type ClickRecorder } from './recorder.js'
export { createLocator } from './location.js'
export type { ClickRef } from './store.js'
export type { LinkInstalls } from './link-analytics.js'
export { botReason, osFamily, parseAgent, platformOf } from './classify.js'

export function clicksModule(deps: { clicks: ClicksService }): Module {
  return { name: 'clicks', routes: clickRoutes(deps), jobs: [purgeDeletedLinkClicksJob(deps.clicks)] }
}
