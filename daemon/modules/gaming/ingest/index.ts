import type { Clock } from '../../../clock.js'
import type { Db } from '../../../db/open.js'
import type { RateLimitStore } from '../../../http/rate-limit.js'
import type { GameService } from '../games/index.js'
import type { GamedataService } from '../storage/index.js'
import type { Module } from '../../module.js'
import { ingestRoutes } from './routes.js'
import { createIngestService, type IngestService } from './service.js'
import { createPostgresIngestStore } from './store-postgres.js'
import { createIngestStore } from './store.js'

/** `POST /api/v1/gaming/events`: checks, the stage pipeline, then the storage layers' fold. */
export type { IngestService } from './service.js'
export type { Stage, StageContext, StageResult } from './pipeline.js'
export type { NormalizedEvent } from './validate.js'

export function createIngest(deps: {
  db: Db
  clock: Clock
  games: GameService
  gamedata: GamedataService
  limiter: RateLimitStore
  perClientPerMinute: number
  perGamePerMinute: number
  countryOf(ip: string): string | null
}): IngestService {
  const { db, ...rest } = deps
  return createIngestService({
    batches:
      db.dialect === 'sqlite'
        ? createIngestStore(db.sqlite, db.kysely)
        : createPostgresIngestStore(db.kysely),
    ...rest,
  })
}

export function ingestModule(deps: { ingest: IngestService }): Module {
  return { name: 'gaming/ingest', routes: ingestRoutes(deps) }
}
