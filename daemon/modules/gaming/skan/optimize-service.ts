/**
 * `POST /api/v1/skan/campaigns/:campaignId/optimize`: reads the campaign's game history through
 * storage (first conversion windows), runs the pure optimizer, and on `apply` replaces the
 * campaign's schema through the campaigns service.
 */
import type { StorageService } from '../storage/index.js'
import { EVENT_TYPE_BY_BIT } from '../storage/index.js'
import type { GameService } from '../games/index.js'
import type { SkanCampaigns } from './campaigns.js'
import { optimize } from './optimize.js'
import type { OptimizeService } from './api.js'
import type { OptimizeResult } from './api.js'

export interface OptimizeDeps {
  campaigns: Pick<SkanCampaigns, 'campaign' | 'replaceSchema'>
  games: Pick<GameService, 'record'>
  history: Pick<StorageService, 'firstWindowHistory'>
}

export function createOptimizeService(deps: OptimizeDeps): OptimizeService {
  return {
    /** A proposal from the game's history; with `apply` the campaign's schema becomes it. */
    async optimize(
      organizationId: string,
      campaignId: string,
      options: { apply: boolean },
    ): Promise<OptimizeResult> {
      const campaign = await deps.campaigns.campaign(organizationId, campaignId)
      const game = await deps.games.record(organizationId, campaign.gameSlug)
      // The optimizer passes over the history several times: two numbers per player stay in
      // memory (~16 MB for a million), the rows come one install day at a time.
      const revenueMicros: number[] = []
      const eventTypes: number[] = []
      for await (const page of deps.history.firstWindowHistory(campaign.gameId))
        for (const player of page) {
          revenueMicros.push(player.revenueMicros)
          eventTypes.push(player.eventTypes)
        }
      const proposal = optimize(
        { revenueMicros, eventTypes, typeByBit: EVENT_TYPE_BY_BIT },
        { current: campaign.conversionSchema, lockWindowHours: campaign.lockWindowHours },
      )
      if (options.apply) await deps.campaigns.replaceSchema(organizationId, campaignId, proposal.proposed)
      return {
        campaignId: campaign.id,
        currency: game.reportingCurrency,
        applied: options.apply,
        ...proposal,
      }
    },
  }
}
