export { createWebhookStore } from './store.js'
export { createWebhookService } from './service.js'
export { type Resolver } from './ssrf.js'
import type { Clock } from '../../clock.js'
import { pruneWebhookDeliveriesJob } from './jobs.js'
import type { Module } from '../module.js'
import { webhookRoutes } from './routes.js'
import type { WebhookService } from './service.js'

/** Webhooks listen to every event type some active webhook subscribes to. */
export function webhooksModule(deps: { webhooks: WebhookService; clock: Clock }): Module {
  const { webhooks } = deps
  return {
    name: 'webhooks',
    routes: webhookRoutes(deps),
    jobs: [pruneWebhookDeliveriesJob(webhooks)],
    subscriptions(events) {
      events.onAny(
        (e) => webhooks.dispatch(e),
        (type) => webhooks.wants(type),
      )
    },
  }
}
