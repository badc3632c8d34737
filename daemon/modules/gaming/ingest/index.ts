/** `POST /api/v1/gaming/events`: checks, the stage pipeline, then the storage (table `game_batches`). */
import type { Clock } from '../../../clock.js'
import type { Db } from '../../../db/open.js'
import type { RateLimitStore } from '../../../http/rate-limit.js'
import type { GameRecord, GameService } from '../games/index.js'
import type { GamedataService } from '../storage/index.js'
import type { Module } from '../../module.js'
import type { ClickLookup } from './attribution.js'
import type { Pipeline } from './pipeline.js'
import { ingestRoutes } from './routes.js'
import { createIngestService, type Admission, type IngestRequest, type SignedRequest } from './service.js'
import { createPostgresIngestStore } from './store-postgres.js'
import { createIngestStore } from './store.js'

export type { Pipeline, Stage, StageContext, StageResult } from './pipeline.js'
export type { NormalizedEvent } from './validate.js'
export type { ClickLookup, ClickOfInstall } from './attribution.js'

export function createIngest(deps: {
  db: Db
  clock: Clock
  games: GameService
  gamedata: GamedataService
  limiter: RateLimitStore
  perClientPerMinute: number
  perGamePerMinute: number
  countryOf(ip: string): string | null
  /** Install attribution: smart-link clicks by click id (the composition's port). */
  clicks?: ClickLookup
}): IngestService {
  const { db, ...rest } = deps
  return createIngestService({
    batches:
      db.dialect === 'sqlite'
        ? createIngestStore(db.sqlite, db.kysely, () => db.reader())
        : createPostgresIngestStore(db.kysely),
    ...rest,
  })
}

/** The ingestion of a batch, step by step as its route calls them, and the pipeline others join. */
export interface IngestService {
  /** The stages every accepted event passes (fraud detection adds itself). */
  pipeline: Pipeline
  /** Totals of this process since start (metrics); `rejected` by the events' error code. */
  counts(): {
    batches: number
    accepted: number
    flagged: number
    blocked: number
    duplicates: number
    rejected: ReadonlyMap<string, number>
  }
  /** Deletes batch_id records older than the 24 h idempotency window; how many. */
  pruneBatches(): Promise<number>
  /** The game of the SDK key and headers; 401 for missing headers, an unknown game or a wrong key. */
  authenticate(headers: {
    authorization: string | undefined
    gameId: string | undefined
    organizationId: string | undefined
  }): Promise<GameRecord>
  /** Counts a game without HMAC in its windows (429 beyond); a game with HMAC only if its window is full. */
  admit(game: GameRecord, ip: string): Promise<Admission | undefined>
  /** Checks the signature and X-Timestamp of a game requiring HMAC, then counts it (401, 400, 429). */
  verify(game: GameRecord, req: SignedRequest, ip: string): Promise<Admission | undefined>
  /** Paused and archived games take nothing (their own errors). */
  assertOpen(game: GameRecord): void
  /** Parses, judges and stores a batch that passed `admit` and `verify`: 202 and the result text. */
  ingest(req: IngestRequest): Promise<{ status: 202; text: string }>
}

export function ingestModule(deps: { ingest: IngestService }): Module {
  return { name: 'gaming/ingest', routes: ingestRoutes(deps) }
}
