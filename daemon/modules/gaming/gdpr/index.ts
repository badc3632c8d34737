/** GDPR deletion of a player: queued, purged by a job over every layer, recorded (`gdpr_deletions`). */
export type * from './api.js'
import type { GdprService } from './api.js'
import type { Clock } from '../../../clock.js'
import type { Db } from '../../../db/open.js'
import type { GameService } from '../games/index.js'
import type { StorageService } from '../storage/index.js'
import type { Module } from '../../module.js'
import { gdprDeletionsJob, gdprRecordsPurgeJob } from './jobs.js'
import { gdprRoutes } from './routes.js'
import { createGdprService } from './service.js'
import { createGdprStore } from './store.js'

/** GDPR deletions: queued, run by a job over every layer (and the purgers others add), recorded. */
export function createGdpr(deps: {
  db: Db
  clock: Clock
  games: GameService
  storage: StorageService
  forgetResponsesNaming(id: string): Promise<number>
}): GdprService {
  const { db, ...rest } = deps
  return createGdprService({ store: createGdprStore(db.kysely), ...rest })
}

export function gdprModule(deps: { gdpr: GdprService }): Module {
  return {
    name: 'gaming/gdpr',
    routes: gdprRoutes(deps),
    jobs: [gdprDeletionsJob(deps.gdpr), gdprRecordsPurgeJob(deps.gdpr)],
  }
}
