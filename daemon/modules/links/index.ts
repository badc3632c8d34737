import { expireLinksJob } from '../../jobs/expire-links.js'
import type { Module } from '../module.js'
import { linkRoutes } from './routes.js'
import type { LinkService } from './service.js'

export function linksModule(deps: { links: LinkService; bodyLimitBytes: number }): Module {
  return { name: 'links', routes: linkRoutes(deps), jobs: [expireLinksJob(deps.links)] }
}
