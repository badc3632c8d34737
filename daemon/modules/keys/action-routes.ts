import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { IdParams, Page, PageQuery } from '../../../src/contract/common.js'
import { ApiKey, ApiKeyWithSecret, KeyActivity } from '../../../src/contract/keys.js'
import { principalOf } from '../../http/auth.js'
import { errorRef } from '../../http/openapi.js'
import type { KeyService } from './api.js'
import { LAST_KEY_409, TARGET_403 } from './routes.js'

const tags = ['API keys']

/** Actions on one key (regenerate, revoke, activate, deactivate) and its request log. */
export function keyActionRoutes(deps: { keys: KeyService }) {
  const { keys } = deps
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>()

    const conflicts = {
      regenerate: 'The key is revoked or expired',
      revoke: LAST_KEY_409,
      activate: 'The key is revoked, or expired (set a new expiresAt first)',
      deactivate: `The key is revoked. ${LAST_KEY_409}`,
    }
    const action = (name: 'regenerate' | 'revoke' | 'activate' | 'deactivate', summary: string) =>
      app.post(
        `/api/keys/:id/${name}`,
        {
          config: { auth: 'keys:write' },
          schema: {
            tags,
            summary,
            params: IdParams,
            response: {
              200: name === 'regenerate' ? ApiKeyWithSecret : ApiKey,
              403: TARGET_403,
              409: errorRef(conflicts[name]),
            },
          },
        },
        async (req) => {
          const p = principalOf(req)
          return keys[name](p.organizationId, req.params.id, p)
        },
      )
    action('regenerate', 'Regenerate the key value; the old value stops working at once')
    action('revoke', 'Revoke the key permanently')
    action('activate', 'Activate an inactive key')
    action('deactivate', 'Deactivate a key (reversible)')

    app.get(
      '/api/keys/:id/activity',
      {
        config: { auth: 'keys:read' },
        schema: {
          tags,
          summary: 'Request log of a key, newest first',
          params: IdParams,
          querystring: PageQuery,
          response: { 200: Page(KeyActivity) },
        },
      },
      async (req) => {
        const p = principalOf(req)
        return keys.activity(p.organizationId, req.params.id, req.query, p)
      },
    )
  }
}
