import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Type from 'typebox'
import { IdParams, Page, PageQuery } from '../../../src/contract/common.js'
import {
  BulkWebhookBody,
  BulkWebhookResult,
  CreateWebhookBody,
  DeliveriesPage,
  Delivery,
  DeliveryParams,
  GenerateSignatureBody,
  GenerateSignatureResult,
  ListDeliveriesQuery,
  ListWebhooksQuery,
  TestWebhookBody,
  UpdateWebhookBody,
  ValidateUrlBody,
  ValidateUrlResult,
  VerifySignatureBody,
  VerifySignatureResult,
  Webhook,
  WebhookAnalytics,
  WebhookTemplate,
  WebhookWithSecret,
} from '../../../src/contract/webhooks.js'
import { deliveryHeaders, signPayload, verifySignature } from '../../../src/contract/webhook-signature.js'
import type { Clock } from '../../clock.js'
import { principalOf } from '../../http/auth.js'
import { errorRef } from '../../http/openapi.js'
import type { WebhookService } from './api.js'

const tags = ['Webhooks']

export function webhookRoutes(deps: { webhooks: WebhookService; clock: Clock }) {
  const { webhooks } = deps
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
    const org = (req: FastifyRequest) => principalOf(req).organizationId

    app.post(
      '/api/webhooks',
      {
        config: { auth: 'webhooks:write' },
        schema: {
          tags,
          summary: 'Create a webhook (the signing secret is in this response only)',
          description:
            'Give `events`, or a `template` whose events are used. Status starts active. Custom header names Content-Type, User-Agent, X-Webhook-* and hop-by-hop headers are refused.',
          body: CreateWebhookBody,
          response: { 201: WebhookWithSecret },
        },
      },
      async (req, reply) => reply.code(201).send(await webhooks.create(org(req), req.body)),
    )

    app.get(
      '/api/webhooks',
      {
        config: { auth: 'webhooks:read' },
        schema: {
          tags,
          summary: 'List webhooks, newest first',
          querystring: ListWebhooksQuery,
          response: { 200: Page(Webhook) },
        },
      },
      async (req) => webhooks.list(org(req), req.query),
    )

    app.get(
      '/api/webhooks/templates',
      {
        config: { auth: 'webhooks:read' },
        schema: {
          tags,
          summary: 'The built-in templates, each a ready event set',
          querystring: PageQuery,
          response: { 200: Page(WebhookTemplate) },
        },
      },
      async (req) => webhooks.templates(req.query),
    )

    app.post(
      '/api/webhooks/bulk',
      {
        config: { auth: 'webhooks:write' },
        schema: {
          tags,
          summary: 'Enable, disable or delete several webhooks (delete removes their delivery logs)',
          description:
            '`updated` counts the webhooks of your organization whose status changed (or that were deleted); unknown ids are ignored.',
          body: BulkWebhookBody,
          response: { 200: BulkWebhookResult },
        },
      },
      async (req) => webhooks.bulk(org(req), req.body),
    )

    app.get(
      '/api/webhooks/:id',
      {
        config: { auth: 'webhooks:read' },
        schema: { tags, summary: 'Get a webhook', params: IdParams, response: { 200: Webhook } },
      },
      async (req) => webhooks.get(org(req), req.params.id),
    )

    app.patch(
      '/api/webhooks/:id',
      {
        config: { auth: 'webhooks:write' },
        schema: {
          tags,
          summary: 'Update a webhook (status changes through enable, disable and suspend)',
          description: '`headers` replaces the whole set of custom headers.',
          params: IdParams,
          body: UpdateWebhookBody,
          response: { 200: Webhook },
        },
      },
      async (req) => webhooks.update(org(req), req.params.id, req.body),
    )

    app.delete(
      '/api/webhooks/:id',
      {
        config: { auth: 'webhooks:write' },
        schema: {
          tags,
          summary: 'Delete a webhook and its delivery log',
          params: IdParams,
          response: { 204: Type.Null({ description: 'Deleted' }) },
        },
      },
      async (req, reply) => {
        await webhooks.delete(org(req), req.params.id)
        return reply.code(204).send(null)
      },
    )

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

    app.post(
      '/api/webhooks/utilities/validate-url',
      {
        config: { auth: 'webhooks:read' },
        schema: {
          tags,
          summary: 'Check a receiver URL: errors, warnings, suggestions and a security score (0-100)',
          body: ValidateUrlBody,
          response: { 200: ValidateUrlResult },
        },
      },
      async (req) => webhooks.validateUrl(req.body.url),
    )

    app.post(
      '/api/webhooks/utilities/generate-signature',
      {
        config: { auth: 'webhooks:read' },
        schema: {
          tags,
          summary: 'Sign a payload as a delivery would be: signature and the delivery headers',
          description: 'timestamp defaults to now (Unix ms). Signed string: `<timestamp>.<payload>`.',
          body: GenerateSignatureBody,
          response: { 200: GenerateSignatureResult },
        },
      },
      async (req) => {
        const timestamp = req.body.timestamp ?? deps.clock.now()
        const headers = deliveryHeaders({
          secret: req.body.secret,
          rawBody: req.body.payload,
          event: eventOf(req.body.payload),
          deliveryId: 'dlv_example-1',
          attempt: 1,
          timestamp,
        })
        return {
          signature: signPayload(req.body.secret, timestamp, req.body.payload),
          timestamp,
          signedString: `${timestamp}.${req.body.payload}`,
          headers,
        }
      },
    )

    app.post(
      '/api/webhooks/utilities/verify-signature',
      {
        config: { auth: 'webhooks:read' },
        schema: {
          tags,
          summary: 'Verify a signature: valid, or the reason (malformed, mismatch, stale beyond 5 minutes)',
          description:
            "A signature is valid only within 5 minutes of server time: the example's timestamp is fixed, so it answers `stale`; verify a signature of the current time (from generate-signature) to see `valid: true`.",
          body: VerifySignatureBody,
          response: { 200: VerifySignatureResult },
        },
      },
      async (req) => verifySignature({ ...req.body, now: deps.clock.now() }),
    )
  }
}

/** The `event` of a JSON payload, for the example X-Webhook-Event header. */
function eventOf(payload: string): string {
  try {
    const e = (JSON.parse(payload) as { event?: unknown }).event
    return typeof e === 'string' ? e : 'link.created'
  } catch {
    return 'link.created'
  }
}
