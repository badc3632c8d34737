import { purgeDeletedLinkClicksJob } from '../../jobs/purge-deleted-link-clicks.js'
import type { Module } from '../module.js'
import { clickRoutes } from './routes.js'
import type { ClicksService } from './service.js'

export function clicksModule(deps: { clicks: ClicksService }): Module {
  return { name: 'clicks', routes: clickRoutes(deps), jobs: [purgeDeletedLinkClicksJob(deps.clicks)] }
}
