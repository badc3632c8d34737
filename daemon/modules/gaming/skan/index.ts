/** SKAN: campaigns and schemas, postbacks, reports, the optimizer (`skan_campaigns`, `skan_postbacks`). */
export type * from './api.js'
import type { Skan, SkanService, OptimizeService } from './api.js'
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../../../clock.js'
import type { Db } from '../../../db/open.js'
import type { RateLimitStore } from '../../../http/rate-limit.js'
import type { GameService } from '../games/index.js'
import type { StorageService } from '../storage/index.js'
import type { Module } from '../../module.js'
import { optimizeRoutes } from './optimize-routes.js'
import { createOptimizeService } from './optimize-service.js'
import { APPLE_SKAN_PUBLIC_KEY, publicKeyOf } from './postback.js'
import { skanRoutes } from './routes.js'
import { createSkanService } from './service.js'
import { createSkanStore } from './store.js'

/** SKAN: campaigns, postbacks and reports (`service`), and the conversion-value optimizer. */
export function createSkan(deps: {
  db: Db
  clock: Clock
  log: FastifyBaseLogger
  games: GameService
  storage: StorageService
  /** The shared quota counters (the organization's pace of campaign creation). */
  limiter: RateLimitStore
  /** Keys postback signatures verify against (SPKI DER, base64); default Apple's alone. */
  publicKeys?: string[]
  /** Caps of the postbacks anyone could have posted (unverified or unmatched). */
  held: { maxRows: number; maxBytes: number }
}): Skan {
  const { clock, games, storage, log } = deps
  const skan = createSkanService({
    store: createSkanStore(deps.db.kysely),
    clock,
    games,
    limiter: deps.limiter,
    publicKeys: (deps.publicKeys ?? [APPLE_SKAN_PUBLIC_KEY]).map(publicKeyOf),
    held: deps.held,
    onDropped(count, sinceStart) {
      log.warn(
        { dropped: count, droppedSinceStart: sinceStart },
        'SKAN: dropped the oldest unverified or unmatched postbacks (LINKD_SKAN_HELD_MAX / _BYTES)',
      )
    },
  })
  // Postbacks follow each game's compacted retention (unmatched ones the default retention).
  storage.addCompactedExpirer('skanPostbacks', (gameId, before) => skan.expirePostbacks(gameId, before))
  const optimizer = createOptimizeService({ campaigns: skan, games, history: storage })
  return { service: skan, optimizer }
}

export function skanModule(deps: {
  skan: SkanService
  optimizer: OptimizeService
  /** The organization of a verified custom domain (the domain directory). */
  organizationOfHost(host: string): string | undefined
  /** The organization of a presented API key holding skan:read, if any (never a 401). */
  organizationOfKey(raw: string | undefined): Promise<string | undefined>
}): Module {
  const campaigns = skanRoutes(deps)
  const optimize = optimizeRoutes(deps)
  return {
    name: 'gaming/skan',
    routes: async (app) => {
      await campaigns(app)
      await optimize(app)
    },
  }
}
