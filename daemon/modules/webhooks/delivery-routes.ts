import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { IdParams } from '../../../src/contract/common.js'
import {
  DeliveriesPage,
  Delivery,
  DeliveryParams,
  ListDeliveriesQuery,
  WebhookAnalytics,
} from '../../../src/contract/webhooks.js'
import { principalOf } from '../../http/auth.js'
import { errorRef } from '../../http/openapi.js'
import type { WebhookService } from './api.js'

const tags = ['Webhooks']

/** A webhook's deliveries: the log, a retry, the health analytics. */
export function webhookDeliveryRoutes(deps: { webhooks: WebhookService }) {
  const { webhooks } = deps
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
    const org = (req: FastifyRequest) => principalOf(req).organizationId

    app.get(
      '/api/webhooks/:id/deliveries',
      {
        config: { auth: 'webhooks:read' },
        schema: {
          tags,
          summary: 'Delivery log, newest first, with totals (total, success, failed, pending)',
          params: IdParams,
          querystring: ListDeliveriesQuery,
          response: { 200: DeliveriesPage },
        },
      },
      async (req) => webhooks.deliveries(org(req), req.params.id, req.query),
    )

    app.post(
      '/api/webhooks/:id/deliveries/:deliveryId/retry',
      {
        config: { auth: 'webhooks:write' },
        schema: {
          tags,
          summary: 'Retry a failed delivery: one new attempt at once; returns the delivery after it',
          params: DeliveryParams,
          response: {
            200: Delivery,
            422: errorRef('Only a failed delivery of an active webhook can be retried'),
          },
        },
      },
      async (req) => webhooks.retry(org(req), req.params.id, req.params.deliveryId),
    )

    app.get(
      '/api/webhooks/:id/analytics',
      {
        config: { auth: 'webhooks:read' },
        schema: {
          tags,
          summary: 'Health: score and band, success rate, average response time, per-event breakdown',
          description:
            'healthScore is the percent of finished deliveries (success or failed) that succeeded, null before any; band Excellent >= 80, Good >= 60, Fair >= 40, Poor below.',
          params: IdParams,
          response: { 200: WebhookAnalytics },
        },
      },
      async (req) => webhooks.analytics(org(req), req.params.id),
    )
  }
}
