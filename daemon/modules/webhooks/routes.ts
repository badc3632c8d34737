import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Type from 'typebox'
import { IdParams, Page, PageQuery } from '../../../src/contract/common.js'
import {
  BulkWebhookBody,
  BulkWebhookResult,
  CreateWebhookBody,
  ListWebhooksQuery,
  UpdateWebhookBody,
  Webhook,
  WebhookTemplate,
  WebhookWithSecret,
} from '../../../src/contract/webhooks.js'
import { principalOf } from '../../http/auth.js'
import type { WebhookService } from './api.js'

const tags = ['Webhooks']

/** Webhooks: create, list, the templates, bulk changes, get, update, delete. */
export function webhookRoutes(deps: { webhooks: WebhookService }) {
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
  }
}
