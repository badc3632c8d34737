/** How webhooks and deliveries are shown by the API (the contract's shapes), and health bands. */
import { iso, isoOrNull } from '../../clock.js'
import { HEALTH_BANDS, type HealthBand } from '../../../src/contract/limits.js'
import type { Delivery, Webhook } from '../../../src/contract/webhooks.js'
import type { DeliveryRecord, WebhookRecord } from './store.js'

export function healthBand(score: number): HealthBand {
  return score >= 80
    ? HEALTH_BANDS[0]
    : score >= 60
      ? HEALTH_BANDS[1]
      : score >= 40
        ? HEALTH_BANDS[2]
        : HEALTH_BANDS[3]
}

export function present(w: WebhookRecord): Webhook {
  return {
    id: w.id,
    name: w.name,
    description: w.description,
    url: w.url,
    events: w.events,
    retryPolicy: w.retryPolicy,
    maxRetries: w.maxRetries,
    timeoutSeconds: w.timeoutSeconds,
    headers: w.headers,
    format: w.format,
    status: w.status,
    consecutiveFailures: w.consecutiveFailures,
    failedAttempts: w.failedAttempts,
    createdAt: iso(w.createdAt),
    updatedAt: iso(w.updatedAt),
  }
}

export function presentDelivery(d: DeliveryRecord): Delivery {
  return {
    id: d.id,
    webhookId: d.webhookId,
    eventId: d.eventId,
    event: d.event,
    status: d.status,
    attempt: d.attempts,
    maxAttempts: d.maxAttempts,
    responseStatusCode: d.lastStatusCode,
    durationMs: d.lastDurationMs,
    error: d.lastError,
    test: d.isTest,
    createdAt: iso(d.createdAt),
    sentAt: isoOrNull(d.lastAttemptAt),
    nextAttemptAt: d.status === 'pending' ? isoOrNull(d.nextAttemptAt) : null,
    completedAt: isoOrNull(d.completedAt),
    payload: JSON.parse(d.payload) as unknown,
  }
}
