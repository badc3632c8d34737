import type { Clock } from '../../clock.js'
import type { GameService } from '../games/service.js'
import { createSkanCampaigns } from './campaigns.js'
import type { SkanStore } from './store.js'

export { presentCampaign } from './campaigns.js'
export type { CampaignRecord } from './store.js'

export interface SkanServiceDeps {
  store: SkanStore
  clock: Clock
  games: Pick<GameService, 'record'>
}

/**
 * SKAN (spec 1.6, 2.7): campaigns and their conversion schemas (`campaigns.ts`), for games with
 * modules.skan on.
 */
export function createSkanService(deps: SkanServiceDeps) {
  const campaigns = createSkanCampaigns(deps)
  return { ...campaigns }
}
export type SkanService = ReturnType<typeof createSkanService>
