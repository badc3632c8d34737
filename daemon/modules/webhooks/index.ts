/** Webhooks, the outbox, signed deliveries, the SSRF guard; owns `webhooks` and `webhook_deliveries`. */
export type * from './api.js'
import type { WebhookService } from './api.js'
import type { Clock } from '../../clock.js'
import type { Module } from '../module.js'
import { pruneWebhookDeliveriesJob } from './jobs.js'
import { webhookActionRoutes } from './action-routes.js'
import { webhookDeliveryRoutes } from './delivery-routes.js'
import { webhookRoutes } from './routes.js'
import { webhookUtilityRoutes } from './utility-routes.js'
export { createWebhookStore } from './store.js'
export { createWebhookService } from './service.js'
export { type Worker } from './worker.js'
export { type Resolver } from './ssrf.js'
/** The SSRF guard, also applied by the domains module's file verification and the exports' stores. */
export {
  vetTarget,
  hostRefusal,
  systemResolver,
  pinnedLookup,
  isFetchTimeout,
  SsrfError,
  type GuardPolicy,
  type ResolvedAddress,
} from './ssrf.js'

/** Webhooks listen to every event type some active webhook subscribes to. */
export function webhooksModule(deps: { webhooks: WebhookService; clock: Clock }): Module {
  const { webhooks } = deps
  const plugins = [webhookRoutes, webhookActionRoutes, webhookDeliveryRoutes, webhookUtilityRoutes].map((p) =>
    p(deps),
  )
  return {
    name: 'webhooks',
    routes: async (app) => {
      for (const plugin of plugins) await plugin(app)
    },
    jobs: [pruneWebhookDeliveriesJob(webhooks)],
    subscriptions(events) {
      events.onAny(
        (e) => webhooks.dispatch(e),
        (type) => webhooks.wants(type),
      )
    },
  }
}
