import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { IdParams } from '../../../src/contract/common.js'
import { Delivery, TestWebhookBody, Webhook, WebhookWithSecret } from '../../../src/contract/webhooks.js'
import { principalOf } from '../../http/auth.js'
import { errorRef } from '../../http/openapi.js'
import type { WebhookService } from './api.js'

const tags = ['Webhooks']

/** Actions on one webhook: enable, disable, suspend, rotate its secret, send a test event. */
export function webhookActionRoutes(deps: { webhooks: WebhookService }) {
  const { webhooks } = deps
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
    const org = (req: FastifyRequest) => principalOf(req).organizationId

    const action = (name: 'enable' | 'disable' | 'suspend', summary: string) =>
      app.post(
        `/api/webhooks/:id/${name}`,
        {
          config: { auth: 'webhooks:write' },
          schema: {
            tags,
            summary,
            params: IdParams,
            response: {
              200: Webhook,
              ...(name === 'suspend' && { 422: errorRef('Only an active webhook can be suspended') }),
            },
          },
        },
        async (req) => webhooks[name](org(req), req.params.id),
      )
    action('enable', 'Enable a webhook (resets its consecutive failures; pending deliveries resume)')
    action('disable', 'Disable a webhook: it receives no events until enabled')
    action('suspend', 'Suspend an active webhook: deliveries pause until it is enabled')

    app.post(
      '/api/webhooks/:id/rotate-secret',
      {
        config: { auth: 'webhooks:write' },
        schema: {
          tags,
          summary: 'New signing secret (shown once); the old one stops at once',
          params: IdParams,
          response: { 200: WebhookWithSecret },
        },
      },
      async (req) => webhooks.rotateSecret(org(req), req.params.id),
    )

    app.post(
      '/api/webhooks/:id/test',
      {
        config: { auth: 'webhooks:write' },
        schema: {
          tags,
          summary: 'Send a sample event of the chosen type (default link.created) now; returns the delivery',
          description:
            'Sent whatever the webhook status, once (no retries), marked `test` in the log; it does not count toward suspension.',
          params: IdParams,
          body: TestWebhookBody,
          response: { 200: Delivery },
        },
        // The body is optional: none means the default event.
        preValidation: (req, _reply, done) => {
          req.body ??= {}
          done()
        },
      },
      async (req) => webhooks.test(org(req), req.params.id, req.body.event),
    )
  }
}
