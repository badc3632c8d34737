import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Page, PageQuery } from '../../../../src/contract/common.js'
import {
  CampaignList,
  CampaignWithReport,
  PostbackAnswer,
  PostbackBody,
  SkanPostback,
  CreateCampaignBody,
  SkanCampaign,
  SkanCampaignParams,
  SkanGameParams,
  UpdateCampaignBody,
  SKAN_LIMITS,
} from '../../../../src/contract/skan.js'
import { presentedKey, principalOf } from '../../../http/auth.js'
import { errorRef } from '../../../http/openapi.js'
import type { SkanService } from './index.js'

const tags = ['SKAN']
const off = errorRef("SKAN is off for the campaign's game (modules.skan)")
const SCHEMA_RULES =
  'conversionSchema: events name → 1, 2, 4, 8, 16 or 32, no two events sharing a bit; coarseValues low/medium/high {min, max} within 0-63, ordered, without gap or overlap, covering 0-63 (default low 0-10, medium 11-40, high 41-63); lockWindow equal to lockWindowHours (its default); decodedRevenue optional. Every violation is a 400 naming the field.'

/** Where Apple posts the advertiser's copy of a winning postback (with and without the slash). */
export const WELL_KNOWN_POSTBACK_PATHS = [
  '/.well-known/skadnetwork/report-attribution/',
  '/.well-known/skadnetwork/report-attribution',
]

export function skanRoutes(deps: {
  skan: SkanService
  organizationOfHost(host: string): string | undefined
  organizationOfKey(raw: string | undefined): Promise<string | undefined>
}) {
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
          querystring: PageQuery,
          response: { 200: CampaignList, 409: off },
        },
      },
      async (req) => skan.list(org(req), req.params.gameId, req.query),
    )

    app.post(
      '/api/v1/skan/games/:gameId/campaigns',
      {
        config: { auth: 'skan:write' },
        schema: {
          tags,
          summary: 'Create a SKAN campaign',
          description: `adNetworkId <name>.skadnetwork (lower-case); lockWindowHours 1-72; sourceIdentifier (2-4 digits) optional. At most ${SKAN_LIMITS.campaignsPerGame} campaigns a game (409) and ${SKAN_LIMITS.campaignsPerHour} created an hour per organization (429). ${SCHEMA_RULES}`,
          params: SkanGameParams,
          body: CreateCampaignBody,
          response: {
            201: SkanCampaign,
            409: errorRef('SKAN is off for the game, or the game has the most campaigns it may have'),
          },
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

    app.get(
      '/api/v1/skan/campaigns/:campaignId',
      {
        config: { auth: 'skan:read' },
        schema: {
          tags,
          summary: 'A SKAN campaign with its report',
          description:
            'report: verified postbacks only, except postbacks (every one received) and each window’s postbacks. Installs (did-win true), redownloads, decoded events and estimatedRevenue read the first postbacks (sequence index 0, days 0-2); estimatedRevenue uses the schema’s decodedRevenue (0 for values it does not name).',
          params: SkanCampaignParams,
          response: { 200: CampaignWithReport, 409: off },
        },
      },
      async (req) => skan.report(org(req), req.params.campaignId),
    )

    app.get(
      '/api/v1/skan/campaigns/:campaignId/postbacks',
      {
        config: { auth: 'skan:read' },
        schema: {
          tags,
          summary: "A campaign's postbacks, newest first (verified or not)",
          params: SkanCampaignParams,
          querystring: PageQuery,
          response: { 200: Page(SkanPostback), 409: off },
        },
      },
      async (req) => skan.postbacks(org(req), req.params.campaignId, req.query),
    )

    const receive = {
      tags,
      summary: 'Receive a SKAdNetwork postback (no API key: Apple signs it)',
      description:
        'The same handler answers at /.well-known/skadnetwork/report-attribution/ (with or without the trailing slash), on the shared domain and on custom domains. Fields are checked per version (2.2, 3.0, 4.0; later 4.x read as 4.0): 400 with every problem in details; a body over 8 KB is 413. The signature is verified against Apple’s key; the postback is stored either way, with Apple’s fields only. 201 for a new postback, 200 with duplicate true and the first answer for a repeat of the same (transaction-id, postback-sequence-index); a verified copy replaces a stored unverified one (201). Matching: on a verified custom domain, its organization’s campaigns only; on the shared domain, the organization that registered the (adNetworkId, sourceIdentifier) pair first. campaignId is the matched campaign’s id only when the request carries an API key (skan:read) of that campaign’s organization, else null. Postbacks that are unverified or match no campaign are kept within LINKD_SKAN_HELD_MAX / LINKD_SKAN_HELD_MAX_BYTES (the oldest dropped). Limited by the per-IP API rate limit.',
      body: PostbackBody,
      response: { 200: PostbackAnswer, 201: PostbackAnswer, 413: errorRef('The body is over 8 KB') },
    }
    for (const url of ['/api/v1/skan/postbacks', ...WELL_KNOWN_POSTBACK_PATHS])
      app.post(
        url,
        {
          schema: url.startsWith('/api/') ? receive : { ...receive, hide: true },
          bodyLimit: SKAN_LIMITS.postbackBodyMax,
        },
        async (req, reply) => {
          // On an organization's custom domain, its campaigns only (tenants never share a
          // 2-4 digit source identifier's postbacks); elsewhere every organization's.
          const { status, answer } = await skan.receive(
            req.body,
            deps.organizationOfHost(req.hostname.replace(/:\d+$/, '')),
            await deps.organizationOfKey(presentedKey(req)),
          )
          return reply.code(status).send(answer)
        },
      )
  }
}
