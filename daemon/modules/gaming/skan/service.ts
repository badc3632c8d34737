import type { KeyObject } from 'node:crypto'
import type { Clock } from '../../../clock.js'
import type { PageOf, PageQuery } from '../../../../src/contract/common.js'
import type { CampaignWithReport, SkanPostback } from '../../../../src/contract/skan.js'
import type { RateLimitStore } from '../../../http/rate-limit.js'
import type { GameService } from '../games/index.js'
import { createSkanCampaigns, presentCampaign } from './campaigns.js'
import { createSkanPostbacks } from './postbacks.js'
import { buildReport } from './report.js'
import type { SkanStore } from './store.js'
import type { SkanService } from './index.js'

export { presentCampaign } from './campaigns.js'
export type { CampaignRecord } from './store.js'

export interface SkanServiceDeps {
  store: SkanStore
  clock: Clock
  games: Pick<GameService, 'record'>
  /** The shared quota counters: the organization's pace of campaign creation. */
  limiter: Pick<RateLimitStore, 'hit'>
  /** The keys a postback signature may verify against (production: Apple's alone). */
  publicKeys: readonly KeyObject[]
  /** Caps of the postbacks anyone could have posted (unverified or unmatched). */
  held: { maxRows: number; maxBytes: number }
  /** Held postbacks were dropped to stay within the caps. */
  onDropped?(count: number, sinceStart: number): void
}

/**
 * SKAN (docs/reference/skan.md): campaigns and their conversion schemas (`campaigns.ts`), postbacks
 * (`postback.ts` the fields and signature, `postbacks.ts` receipt and matching), reports
 * (`report.ts`), the retention of postbacks.
 */
export function createSkanService(deps: SkanServiceDeps): SkanService {
  const campaigns = createSkanCampaigns(deps)
  const postbacks = createSkanPostbacks(deps)
  const { store } = deps
  return {
    ...campaigns,
    receive: postbacks.receive,
    droppedPostbacks: postbacks.droppedPostbacks,

    /** A campaign with its report (verified postbacks only, except the totals that say so). */
    async report(organizationId: string, campaignId: string): Promise<CampaignWithReport> {
      const c = await campaigns.campaign(organizationId, campaignId)
      return {
        ...presentCampaign(c),
        report: buildReport(await store.postbackGroups(c.id), c.conversionSchema),
      }
    },

    async postbacks(organizationId: string, campaignId: string, q: PageQuery): Promise<PageOf<SkanPostback>> {
      return postbacks.listPostbacks(await campaigns.campaign(organizationId, campaignId), q)
    },

    /**
     * A game's postbacks received before `before` (`null`: the unmatched ones), the gaming
     * compaction's expirer; how many were deleted.
     */
    expirePostbacks: (gameId: string | null, before: number): Promise<number> =>
      store.deletePostbacksBefore(gameId, before),
  }
}
