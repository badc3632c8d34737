/**
 * What each process keeps in memory and the other linkd processes on the same database change:
 * the composition root wires every such cache to the change feed (db/notify.ts) here, both ways.
 */
import type { FastifyBaseLogger } from 'fastify'
import { EVERYTHING, type ChangeFeed } from './db/notify.js'
import type { EventBus } from './events.js'
import type { HotLinkCache } from './modules/redirect/index.js'

export function shareCaches(deps: {
  feed: ChangeFeed
  events: EventBus
  hotLinks: HotLinkCache
  directory: { refresh(): Promise<void> }
  webhooks: { forgetSubscriptions(organizationId: string): void }
  log: FastifyBaseLogger
}): void {
  const { feed, log } = deps
  const failed = (what: string) => (err: unknown) => log.error({ err }, what)
  // Links: announced by the links service's events; the hot-link cache (and the fast path) forget them.
  deps.events.on('link.updated', (e) => feed.publish('link', e.data.id))
  deps.events.on('link.deleted', (e) => feed.publish('link', e.data.id))
  feed.on('link', (id) => (id === EVERYTHING ? deps.hotLinks.clear() : deps.hotLinks.invalidate(id)))
  // Domains (hosts, verification, certificates for SNI) and webhooks announce their own
  // changes (their services' `announce`); here the other processes' notices reload them. Fraud
  // listens to its own notices (modules/gaming/index.ts).
  feed.on('domains', () => void deps.directory.refresh().catch(failed('domain refresh failed')))
  feed.on('webhooks', (organizationId) => deps.webhooks.forgetSubscriptions(organizationId))
}
