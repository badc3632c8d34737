/** Short links, their codes, bulk creation and QR codes; owns `links` and `link_tags`. */
export type * from './api.js'
import type { LinkService, SmartLinkService } from './api.js'
export { createLinkStore } from './store.js'
export { createLinkService, qrCodeIdOf } from './service.js'
export { type ResolvedLink } from './present.js'
export { createSmartLinkService } from './smart-links.js'
export { destinationsOf, type Destination } from './destinations.js'
export { SHARED_DOMAIN_KEY, createReservedCodes, type ReservedCodes } from './rules.js'
export { type QrImage } from '../../qr/index.js'
import type { Module } from '../module.js'
import { expireLinksJob } from './jobs.js'
import { linkRoutes } from './routes.js'
import { linkQrRoutes } from './qr-routes.js'
import { smartLinkRoutes } from './smart-routes.js'
import type { ReservedCodes } from './rules.js'

export function linksModule(deps: {
  links: LinkService
  smartLinks: SmartLinkService
  bodyLimitBytes: number
  /** Filled here from the route table: every route's first path segment is reserved. */
  reserved: ReservedCodes
}): Module {
  const links = linkRoutes(deps)
  const qr = linkQrRoutes(deps)
  const smart = smartLinkRoutes(deps)
  return {
    name: 'links',
    hooks(app) {
      // Module hooks are installed before any route registers, so every route is seen.
      app.addHook('onRoute', (route) => deps.reserved.addRoute(route.url))
    },
    routes: async (app) => {
      await links(app)
      await qr(app)
      await smart(app)
    },
    jobs: [expireLinksJob(deps.links)],
  }
}
