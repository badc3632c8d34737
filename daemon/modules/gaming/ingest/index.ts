/** `POST /api/v1/gaming/events`: checks, the stage pipeline, then the storage (table `game_batches`). */
export type * from './api.js'
import type { IngestService } from './api.js'
import type { Clock } from '../../../clock.js'
import type { Db } from '../../../db/open.js'
import type { RateLimitStore } from '../../../http/rate-limit.js'
import type { GameService } from '../games/index.js'
import type { StorageService } from '../storage/index.js'
import type { Module } from '../../module.js'
import type { ClickLookup } from './attribution.js'
import { ingestRoutes } from './routes.js'
import { createIngestService } from './service.js'
import { createPostgresIngestStore } from './store-postgres.js'
import { createIngestStore } from './store.js'

export type { Pipeline, Stage, StageContext, StageResult } from './pipeline.js'
export type { NormalizedEvent } from './validate.js'
export type { ClickLookup, ClickOfInstall } from './attribution.js'

export function createIngest(deps: {
  db: Db
  clock: Clock
  games: GameService
  storage: StorageService
  limiter: RateLimitStore
  perClientPerMinute: number
  perGamePerMinute: number
  countryOf(ip: string): string | null
  /** Install attribution: smart-link clicks by click id (the composition's port). */
  clicks?: ClickLookup
  /** The turns of the event loop parsing and judging take (shared with the group writer). */
  turn?: () => Promise<void>
}): IngestService {
  const { db, ...rest } = deps
  const ingest = createIngestService({
    batches:
      db.dialect === 'sqlite'
        ? createIngestStore(db.sqlite, db.kysely, () => db.reader())
        : createPostgresIngestStore(db.kysely),
    ...rest,
  })
  // Batch ids leave after the 24 h idempotency window, with the storage's raw retention run.
  deps.storage.addRawPruner('batch ids', () => ingest.pruneBatches())
  return ingest
}

export function ingestModule(deps: { ingest: IngestService }): Module {
  return { name: 'gaming/ingest', routes: ingestRoutes(deps) }
}
