/** Webhooks, the outbox, signed deliveries, the SSRF guard; owns `webhooks` and `webhook_deliveries`. */
export { createWebhookStore } from './store.js'
export { createWebhookService } from './service.js'
export { type Worker } from './worker.js'
export { type Resolver } from './ssrf.js'
/** The SSRF guard, also applied by the domains module's file verification. */
export {
  vetTarget,
  pinnedLookup,
  isFetchTimeout,
  SsrfError,
  type GuardPolicy,
  type ResolvedAddress,
} from './ssrf.js'
import type { PageOf, PageQuery } from '../../../src/contract/common.js'
import type { WebhookEvent } from '../../../src/contract/limits.js'
import type {
  BulkWebhookBody,
  CreateWebhookBody,
  DeliveriesPage,
  Delivery,
  ListDeliveriesQuery,
  ListWebhooksQuery,
  UpdateWebhookBody,
  ValidateUrlResult,
  Webhook,
  WebhookAnalytics,
  WebhookTemplate,
  WebhookWithSecret,
} from '../../../src/contract/webhooks.js'
import type { Clock } from '../../clock.js'
import type { EventEnvelope, EventType } from '../../events.js'
import type { Module } from '../module.js'
import { pruneWebhookDeliveriesJob } from './jobs.js'
import { webhookActionRoutes } from './action-routes.js'
import { webhookDeliveryRoutes } from './delivery-routes.js'
import { webhookRoutes } from './routes.js'
import { webhookUtilityRoutes } from './utility-routes.js'
import type { Worker } from './worker.js'

export interface WebhookService {
  /** The sender: claims due deliveries and sends them (start, stop, runDue, sendNow, wake). */
  worker: Worker
  /** Another linkd process changed an organization's webhooks ('*': any organization's). */
  forgetSubscriptions(organizationId: string): void
  /** Resolves when every event received so far is written to the outbox (tests). */
  settle(): Promise<void>
  /** Creates a webhook (events given or from a template); its secret is returned once. */
  create(organizationId: string, body: CreateWebhookBody): Promise<WebhookWithSecret>
  /** A page of the organization's webhooks (status, event). */
  list(organizationId: string, q: ListWebhooksQuery): Promise<PageOf<Webhook>>
  /** One webhook; 404 otherwise. */
  get(organizationId: string, id: string): Promise<Webhook>
  /** Edits a webhook's name, URL, events, retries, timeout or headers. */
  update(organizationId: string, id: string, body: UpdateWebhookBody): Promise<Webhook>
  /** Deletes a webhook and its delivery log. */
  delete(organizationId: string, id: string): Promise<void>
  /** Makes a webhook active; deliveries left pending resume. */
  enable(organizationId: string, id: string): Promise<Webhook>
  /** Turns a webhook off: it receives no events until enabled. */
  disable(organizationId: string, id: string): Promise<Webhook>
  /** Pauses an active webhook's deliveries until it is enabled. */
  suspend(organizationId: string, id: string): Promise<Webhook>
  /** A new signing secret (returned once). */
  rotateSecret(organizationId: string, id: string): Promise<WebhookWithSecret>
  /** Enables, disables or deletes several webhooks; returns how many changed. */
  bulk(organizationId: string, body: BulkWebhookBody): Promise<{ updated: number }>
  /** Sends a sample event now (whatever the webhook's status) and returns the delivery. */
  test(organizationId: string, id: string, event?: WebhookEvent): Promise<Delivery>
  /** A page of a webhook's deliveries with totals per status. */
  deliveries(organizationId: string, id: string, q: ListDeliveriesQuery): Promise<DeliveriesPage>
  /** One more attempt of a failed delivery, at once; returns it after that attempt. */
  retry(organizationId: string, id: string, deliveryId: string): Promise<Delivery>
  /** Health score and band, success rate, response time and events of a webhook's deliveries. */
  analytics(organizationId: string, id: string): Promise<WebhookAnalytics>
  /** validate-url: the URL rules under this server's settings. */
  validateUrl(url: string): ValidateUrlResult
  /** The webhook templates (events and retry settings per use). */
  templates(q: PageQuery): PageOf<WebhookTemplate>
  /** Job: drops finished deliveries older than the retention; returns how many. */
  pruneDeliveries(retentionDays?: number): Promise<number>
  /** Writes the deliveries of an event to the outbox (subscribed to the event bus). */
  dispatch(event: EventEnvelope): Promise<void>
  /** Whether some active webhook subscribes to this event type (clicks are announced only then). */
  wants(type: EventType): boolean
  /** Metrics: deliveries pending and webhooks suspended, across organizations. */
  totals(): Promise<{ backlog: number; suspended: number }>
  /** Starts the sender and the periodic re-read of subscriptions. */
  start(): void
  /** Stops both after writing what the outbox received. */
  stop(): Promise<void>
}

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
