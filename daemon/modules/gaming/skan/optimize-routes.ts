/**
 * `POST /api/v1/skan/campaigns/:campaignId/optimize`: skan:read proposes; `?apply=true` also
 * needs skan:write (403 otherwise) and replaces the campaign's schema.
 */
import type { FastifyInstance } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { SkanCampaignParams } from '../../../../src/contract/skan.js'
import { OptimizeQuery, OptimizeResult } from '../../../../src/contract/skan-optimize.js'
import { AppError } from '../../../http/errors.js'
import { hasScope, principalOf } from '../../../http/auth.js'
import { errorRef } from '../../../http/openapi.js'
import type { OptimizeService } from './api.js'

export function optimizeRoutes(deps: { optimizer: OptimizeService }) {
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
    app.post(
      '/api/v1/skan/campaigns/:campaignId/optimize',
      {
        config: { auth: 'skan:read' },
        schema: {
          tags: ['SKAN'],
          summary: "Propose a conversion schema from the game's history (apply=true replaces the campaign's)",
          description:
            "Reads each installed player's revenue and event types in the first conversion window (days 0-2 after install; players whose window is over). The low bits flag the key events most associated with revenue, the high bits a revenue bucket whose edges are payer-revenue quantiles; each value decodes to its bucket's midpoint (the top bucket: its mean). expectedError compares the decoded revenue with the history's true revenue. Fewer than 100 installs: 422. apply=true needs skan:write.",
          params: SkanCampaignParams,
          querystring: OptimizeQuery,
          response: {
            200: OptimizeResult,
            409: errorRef("SKAN is off for the campaign's game (modules.skan)"),
            422: errorRef('Too little history: fewer than 100 installs with a complete first window'),
          },
        },
      },
      async (req) => {
        const principal = principalOf(req)
        const apply = req.query.apply === true
        if (apply && !hasScope(principal.permissions, 'skan:write'))
          throw new AppError(
            'Forbidden',
            'this API key lacks the skan:write permission (needed for apply=true)',
          )
        return deps.optimizer.optimize(principal.organizationId, req.params.campaignId, { apply })
      },
    )
  }
}
