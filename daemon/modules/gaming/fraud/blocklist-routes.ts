import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Type from 'typebox'
import { Page, PageQuery } from '../../../../src/contract/common.js'
import {
  BlocklistEntry,
  BlocklistParams,
  CreateBlocklistBody,
  FraudGameParams,
} from '../../../../src/contract/fraud.js'
import { principalOf } from '../../../http/auth.js'
import { errorRef } from '../../../http/openapi.js'
import type { FraudService } from './api.js'
import { base, off } from './routes.js'

const tags = ['Fraud']

/** A game's blocklist: list, add, remove entries. */
export function blocklistRoutes(deps: { fraud: FraudService }) {
  const { fraud } = deps
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
    const org = (req: Parameters<typeof principalOf>[0]) => principalOf(req).organizationId

    app.get(
      `${base}/blocklist`,
      {
        config: { auth: 'fraud:read' },
        schema: {
          tags,
          summary: "List a game's blocklist (newest first)",
          params: FraudGameParams,
          querystring: PageQuery,
          response: { 200: Page(BlocklistEntry), 409: off },
        },
      },
      async (req) => fraud.listBlocklist(org(req), req.params.gameId, req.query),
    )

    app.post(
      `${base}/blocklist`,
      {
        config: { auth: 'fraud:write' },
        schema: {
          tags,
          summary: 'Block an IP address or a device fingerprint for 30 days',
          description:
            'IPv4 and IPv6 are normalized (an IPv4-mapped IPv6 address is its IPv4 address). Every later event of the game from that IP or device is rejected (per-event error Blocked in the 202 body) before detection. 409 when already listed.',
          params: FraudGameParams,
          body: CreateBlocklistBody,
          response: { 201: BlocklistEntry, 409: errorRef('Already listed, or fraud detection is off') },
        },
      },
      async (req, reply) => reply.code(201).send(await fraud.addBlock(org(req), req.params.gameId, req.body)),
    )

    app.delete(
      `${base}/blocklist/:entryId`,
      {
        config: { auth: 'fraud:write' },
        schema: {
          tags,
          summary: 'Remove a blocklist entry',
          params: BlocklistParams,
          response: { 204: Type.Null({ description: 'Removed' }), 409: off },
        },
      },
      async (req, reply) => {
        await fraud.removeBlock(org(req), req.params.gameId, req.params.entryId)
        return reply.code(204).send(null)
      },
    )
  }
}
