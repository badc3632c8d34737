/** `GET|HEAD /:code`, its fast path and the hot-link cache; owns no table. */
export type * from './api.js'
import type { RedirectService } from './api.js'
import type { Clock } from '../../clock.js'
import type { Module } from '../module.js'
import { redirectRoutes } from './routes.js'
export { createRedirectService } from './service.js'
export { createFastRedirect, type FastRedirectDeps } from './fast-path.js'
export { type HotLinkCache } from './cache.js'
export { sendFlaggedRoot } from './protected.js'

/** Short-link resolution; its hot-link cache forgets a link as soon as this process announces a change. */
export function redirectModule(deps: { redirect: RedirectService; clock: Clock }): Module {
  const { cache } = deps.redirect
  return {
    name: 'redirect',
    routes: redirectRoutes(deps),
    subscriptions(events) {
      events.on('link.updated', (e) => cache.invalidate(e.data.id))
      events.on('link.deleted', (e) => cache.invalidate(e.data.id))
    },
  }
}
