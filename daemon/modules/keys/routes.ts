import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Type from 'typebox'
import { IdParams, Page } from '../../../src/contract/common.js'
import {
  ApiKey,
  ApiKeyWithSecret,
  CreateKeyBody,
  ListKeysQuery,
  UpdateKeyBody,
} from '../../../src/contract/keys.js'
import { principalOf } from '../../http/auth.js'
import { errorRef } from '../../http/openapi.js'
import type { KeyService } from './api.js'

const tags = ['API keys']

/** Documented refusals of the routes that act on one key. */
export const TARGET_403 = errorRef(
  "The key lacks keys:write, or lacks a scope the target key holds (named in the message; a key may always act on itself), or its member is a member or viewer and the target is another member's key, or an admin and the target is an owner's key",
)
export const LAST_KEY_409 =
  "The target is the organization's last active key with keys:write, or its last active key holding every scope (create another first)"

/** API keys: create, list, get, update, delete. */
export function keyRoutes(deps: { keys: KeyService }) {
  const { keys } = deps
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>()

    app.post(
      '/api/keys',
      {
        config: { auth: 'keys:write' },
        schema: {
          tags,
          summary: 'Create an API key (the full key is in this response only)',
          body: CreateKeyBody,
          response: {
            201: ApiKeyWithSecret,
            403: errorRef(
              "The key lacks keys:write, a scope it would grant, or the plan's key limit is reached",
            ),
          },
        },
      },
      async (req, reply) => {
        const p = principalOf(req)
        return reply
          .code(201)
          .send(await keys.create(p.organizationId, req.body, p.permissions, { memberId: p.memberId }))
      },
    )

    app.get(
      '/api/keys',
      {
        config: { auth: 'keys:read' },
        schema: {
          tags,
          summary: 'List API keys',
          querystring: ListKeysQuery,
          response: { 200: Page(ApiKey) },
        },
      },
      async (req) => {
        const p = principalOf(req)
        return keys.list(p.organizationId, req.query, p)
      },
    )

    app.get(
      '/api/keys/:id',
      {
        config: { auth: 'keys:read' },
        schema: { tags, summary: 'Get an API key', params: IdParams, response: { 200: ApiKey } },
      },
      async (req) => {
        const p = principalOf(req)
        return keys.get(p.organizationId, req.params.id, p)
      },
    )

    app.patch(
      '/api/keys/:id',
      {
        config: { auth: 'keys:write' },
        schema: {
          tags,
          summary: 'Update an API key (not allowed once revoked)',
          params: IdParams,
          body: UpdateKeyBody,
          response: {
            200: ApiKey,
            403: errorRef(
              'The key lacks keys:write, a scope the target key holds, or a scope it would grant',
            ),
            409: errorRef(
              `The key is revoked, or permissions drop keys:write from the last key with it. ${LAST_KEY_409}`,
            ),
          },
        },
      },
      async (req) => {
        const p = principalOf(req)
        return keys.update(p.organizationId, req.params.id, req.body, p)
      },
    )

    app.delete(
      '/api/keys/:id',
      {
        config: { auth: 'keys:write' },
        schema: {
          tags,
          summary: 'Delete an API key and its activity log',
          params: IdParams,
          response: {
            204: Type.Null({ description: 'Deleted' }),
            403: TARGET_403,
            409: errorRef(LAST_KEY_409),
          },
        },
      },
      async (req, reply) => {
        const p = principalOf(req)
        await keys.delete(p.organizationId, req.params.id, p)
        return reply.code(204).send(null)
      },
    )
  }
}
