export { createLinkStore } from './store.js'
export { createLinkService, qrCodeIdOf, type ClickDelta, type ResolvedLink } from './service.js'
export { SHARED_DOMAIN_KEY } from './rules.js'
import { expireLinksJob } from './jobs.js'
import type { Module } from '../module.js'
import { linkRoutes } from './routes.js'
import type { LinkService } from './service.js'

export function linksModule(deps: { links: LinkService; bodyLimitBytes: number }): Module {
  return { name: 'links', routes: linkRoutes(deps), jobs: [expireLinksJob(deps.links)] }
}
