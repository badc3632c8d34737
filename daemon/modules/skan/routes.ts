import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import {
  CampaignList,
  CreateCampaignBody,
  SkanCampaign,
  SkanCampaignParams,
  SkanGameParams,
  UpdateCampaignBody,
} from '../../../src/contract/skan.js'
import { principalOf } from '../../http/auth.js'
import { errorRef } from '../../http/openapi.js'
import type { SkanService } from './service.js'

const tags = ['SKAN']
const off = errorRef("SKAN is off for the campaign's game (modules.skan)")
const SCHEMA_RULES =
  'conversionSchema: events name → 1, 2, 4, 8, 16 or 32, no two events sharing a bit; coarseValues low/medium/high {min, max} within 0-63, ordered, without gap or overlap, covering 0-63 (default low 0-10, medium 11-40, high 41-63); lockWindow equal to lockWindowHours (its default); decodedRevenue optional. Every violation is a 400 naming the field.'

export function skanRoutes(deps: { skan: SkanService }) {
  const { skan } = deps
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
    const org = (req: Parameters<typeof principalOf>[0]) => principalOf(req).organizationId

    app.get(
      '/api/v1/skan/games/:gameId/campaigns',
      {
        config: { auth: 'skan:read' },
        schema: {
          tags,
          summary: "List a game's SKAN campaigns (oldest first)",
          params: SkanGameParams,
          response: { 200: CampaignList, 409: off },
        },
      },
      async (req) => skan.list(org(req), req.params.gameId),
    )

    app.post(
      '/api/v1/skan/games/:gameId/campaigns',
      {
        config: { auth: 'skan:write' },
        schema: {
          tags,
          summary: 'Create a SKAN campaign',
          description: `adNetworkId <name>.skadnetwork (lower-case); lockWindowHours 1-72; sourceIdentifier (2-4 digits) optional. ${SCHEMA_RULES}`,
          params: SkanGameParams,
          body: CreateCampaignBody,
          response: { 201: SkanCampaign, 409: off },
        },
      },
      async (req, reply) => reply.code(201).send(await skan.create(org(req), req.params.gameId, req.body)),
    )

    app.patch(
      '/api/v1/skan/campaigns/:campaignId',
      {
        config: { auth: 'skan:write' },
        schema: {
          tags,
          summary: 'Update a SKAN campaign (schema included); the result is validated as a whole',
          description: `affiliateId and sourceIdentifier null remove them. A new lockWindowHours without a conversionSchema moves the stored schema's lockWindow with it. ${SCHEMA_RULES}`,
          params: SkanCampaignParams,
          body: UpdateCampaignBody,
          response: { 200: SkanCampaign, 409: off },
        },
      },
      async (req) => skan.update(org(req), req.params.campaignId, req.body),
    )
  }
}
