/** GDPR deletion of a player: queued, purged by a job over every layer, recorded (`gdpr_deletions`). */
import type { Clock } from '../../../clock.js'
import type { Db } from '../../../db/open.js'
import type { GameService } from '../games/index.js'
import type { GamedataService } from '../storage/index.js'
import type { PageOf } from '../../../../src/contract/common.js'
import type { GdprDeletion, GdprDeletionBody, GdprDeletionsQuery } from '../../../../src/contract/gaming.js'
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
  gamedata: GamedataService
  forgetResponsesNaming(id: string): Promise<number>
}): GdprService {
  const { db, ...rest } = deps
  return createGdprService({ store: createGdprStore(db.kysely), ...rest })
}

/** GDPR deletions of one player: irreversible, not cancellable, the record kept 365 days. */
export interface GdprService {
  /** Queues a deletion (the confirmation must be DELETE; 404 for a game of another organization). */
  request(organizationId: string, body: GdprDeletionBody): Promise<GdprDeletion>
  /** One deletion request of the organization (404 otherwise). */
  get(organizationId: string, id: string): Promise<GdprDeletion>
  /** The organization's deletion records (kept 365 days after completion), newest first, filtered. */
  list(organizationId: string, q: GdprDeletionsQuery): Promise<PageOf<GdprDeletion>>
  /** The job: purges queued players. Returns how many requests completed. */
  processQueue(): Promise<number>
  /** The job: deletion records past their 365 days; how many. */
  purgeExpiredRecords(): Promise<number>
}

export function gdprModule(deps: { gdpr: GdprService }): Module {
  return {
    name: 'gaming/gdpr',
    routes: gdprRoutes(deps),
    jobs: [gdprDeletionsJob(deps.gdpr), gdprRecordsPurgeJob(deps.gdpr)],
  }
}
