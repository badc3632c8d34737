export { createClickStore } from './store.js'
export { createPostgresClickStore } from './postgres-store.js'
export { createClicksService, type ClickInput, type ClicksService } from './service.js'
export { createLocator } from './location.js'
import { purgeDeletedLinkClicksJob } from './jobs.js'
import type { Module } from '../module.js'
import { clickRoutes } from './routes.js'
import type { ClicksService } from './service.js'

export function clicksModule(deps: { clicks: ClicksService }): Module {
  return { name: 'clicks', routes: clickRoutes(deps), jobs: [purgeDeletedLinkClicksJob(deps.clicks)] }
}
