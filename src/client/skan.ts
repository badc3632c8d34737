import type { PageOf, PageQuery } from '../contract/common.js'
import type {
  CampaignWithReport,
  CreateCampaignBody,
  PostbackAnswer,
  SkanCampaign,
  SkanPostback,
  UpdateCampaignBody,
} from '../contract/skan.js'
import type { OptimizeResult as SkanOptimizeResult } from '../contract/skan-optimize.js'
import type { Requests } from './http.js'

/** SKAN campaigns, their reports and postbacks (`/api/v1/skan`). */
export function skanApi(http: Requests) {
  return {
    /** A page of the game's campaigns, oldest first. */
    campaigns: (game: string, query: PageQuery = {}) =>
      http.data<PageOf<SkanCampaign>>('GET', `/api/v1/skan/games/${encodeURIComponent(game)}/campaigns`, {
        query,
      }),
    createCampaign: (game: string, body: CreateCampaignBody) =>
      http.data<SkanCampaign>('POST', `/api/v1/skan/games/${encodeURIComponent(game)}/campaigns`, { body }),
    updateCampaign: (id: string, body: UpdateCampaignBody) =>
      http.data<SkanCampaign>('PATCH', `/api/v1/skan/campaigns/${encodeURIComponent(id)}`, { body }),
    /** The campaign with its report. */
    campaign: (id: string) =>
      http.data<CampaignWithReport>('GET', `/api/v1/skan/campaigns/${encodeURIComponent(id)}`),
    postbacks: (id: string, query: PageQuery = {}) =>
      http.data<PageOf<SkanPostback>>('GET', `/api/v1/skan/campaigns/${encodeURIComponent(id)}/postbacks`, {
        query,
      }),
    /** Posts a postback (no key needed: Apple signs it). */
    postback: (body: Record<string, unknown>) =>
      http.data<PostbackAnswer>('POST', '/api/v1/skan/postbacks', { body }),
    /** A proposed conversion schema from the game's history; `apply` replaces the campaign's. */
    optimize: (campaignId: string, opts: { apply?: boolean } = {}) =>
      http.data<SkanOptimizeResult>(
        'POST',
        `/api/v1/skan/campaigns/${encodeURIComponent(campaignId)}/optimize`,
        {
          ...(opts.apply ? { query: { apply: true } } : {}),
        },
      ),
  }
}
