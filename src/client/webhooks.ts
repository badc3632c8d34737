import type { PageOf, PageQuery } from '../contract/common.js'
import type {
  BulkWebhookBody,
  CreateWebhookBody,
  DeliveriesPage,
  Delivery,
  GenerateSignatureResult,
  ListDeliveriesQuery,
  ListWebhooksQuery,
  UpdateWebhookBody,
  ValidateUrlResult,
  VerifySignatureResult,
  Webhook,
  WebhookAnalytics,
  WebhookTemplate,
  WebhookWithSecret,
} from '../contract/webhooks.js'
import type { WebhookEvent } from '../contract/limits.js'
import type { Requests } from './http.js'

/** Test and retry wait for the attempt, which may take the webhook's whole timeout (up to 60 s). */
const ATTEMPT_TIMEOUT_MS = 90_000

/** Webhooks (`/api/webhooks`): subscriptions, deliveries and signature utilities. */
export function webhooksApi(http: Requests) {
  return {
    create: (body: CreateWebhookBody) => http.data<WebhookWithSecret>('POST', '/api/webhooks', { body }),
    list: (query: ListWebhooksQuery = {}) => http.data<PageOf<Webhook>>('GET', '/api/webhooks', { query }),
    get: (id: string) => http.data<Webhook>('GET', `/api/webhooks/${encodeURIComponent(id)}`),
    update: (id: string, body: UpdateWebhookBody) =>
      http.data<Webhook>('PATCH', `/api/webhooks/${encodeURIComponent(id)}`, { body }),
    delete: async (id: string) => {
      await http.call('DELETE', `/api/webhooks/${encodeURIComponent(id)}`)
    },
    enable: (id: string) => http.data<Webhook>('POST', `/api/webhooks/${encodeURIComponent(id)}/enable`),
    disable: (id: string) => http.data<Webhook>('POST', `/api/webhooks/${encodeURIComponent(id)}/disable`),
    suspend: (id: string) => http.data<Webhook>('POST', `/api/webhooks/${encodeURIComponent(id)}/suspend`),
    rotateSecret: (id: string) =>
      http.data<WebhookWithSecret>('POST', `/api/webhooks/${encodeURIComponent(id)}/rotate-secret`),
    bulk: (body: BulkWebhookBody) => http.data<{ updated: number }>('POST', '/api/webhooks/bulk', { body }),
    test: (id: string, event?: WebhookEvent) =>
      http.data<Delivery>('POST', `/api/webhooks/${encodeURIComponent(id)}/test`, {
        body: event ? { event } : {},
        timeoutMs: ATTEMPT_TIMEOUT_MS,
      }),
    deliveries: (id: string, query: ListDeliveriesQuery = {}) =>
      http.data<DeliveriesPage>('GET', `/api/webhooks/${encodeURIComponent(id)}/deliveries`, { query }),
    retry: (id: string, deliveryId: string) =>
      http.data<Delivery>(
        'POST',
        `/api/webhooks/${encodeURIComponent(id)}/deliveries/${encodeURIComponent(deliveryId)}/retry`,
        { timeoutMs: ATTEMPT_TIMEOUT_MS },
      ),
    analytics: (id: string) =>
      http.data<WebhookAnalytics>('GET', `/api/webhooks/${encodeURIComponent(id)}/analytics`),
    templates: (query: PageQuery = {}) =>
      http.data<PageOf<WebhookTemplate>>('GET', '/api/webhooks/templates', { query }),
    validateUrl: (url: string) =>
      http.data<ValidateUrlResult>('POST', '/api/webhooks/utilities/validate-url', { body: { url } }),
    generateSignature: (body: { secret: string; payload: string; timestamp?: number }) =>
      http.data<GenerateSignatureResult>('POST', '/api/webhooks/utilities/generate-signature', { body }),
    verifySignature: (body: {
      secret: string
      payload: string
      signature: string
      timestamp: string | number
    }) => http.data<VerifySignatureResult>('POST', '/api/webhooks/utilities/verify-signature', { body }),
  }
}
