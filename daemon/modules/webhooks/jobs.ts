import type { WebhookService } from './api.js'
import { WEBHOOK_LIMITS } from '../../../src/contract/limits.js'
import type { JobDefinition } from '../../jobs/scheduler.js'
import { plural } from '../../../src/contract/numbers.js'

/** Drops finished webhook deliveries older than 30 days (pending ones are kept whatever their age). */
export function pruneWebhookDeliveriesJob(webhooks: Pick<WebhookService, 'pruneDeliveries'>): JobDefinition {
  return {
    name: 'prune-webhook-deliveries',
    schedule: '50 3 * * *',
    async run() {
      const n = await webhooks.pruneDeliveries(WEBHOOK_LIMITS.deliveryRetentionDays)
      return n ? `${plural(n, 'webhook delivery', 'webhook deliveries')} pruned` : undefined
    },
  }
}
