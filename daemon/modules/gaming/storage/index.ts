/**
 * Gaming storage: every game's raw events, sessions, profiles and aggregates (the game_* tables but
 * games and game_batches), stored by one fold per batch, expired, purged per player, and read.
 */
export type * from './api.js'
import type { StorageService } from './api.js'
import type { Clock } from '../../../clock.js'
import type { Db } from '../../../db/open.js'
import type { Turn } from '../../../turns.js'
import type { GameService } from '../games/index.js'
import type { Module } from '../../module.js'
import { createAcquisitionStore } from './acquisition-store.js'
import { createAggregatesStore } from './aggregates-store.js'
import { gamingCompactionJob, gamingRawRetentionJob } from './jobs.js'
import { lockPlayer } from './locks-store-postgres.js'
import { createStorageMaintenanceStore } from './maintenance-store.js'
import { createPlayersStore } from './players-store.js'
import { createFunnelStore } from './funnel-store.js'
import { createRawEventsStore } from './raw-events-store.js'
import { arrayRows } from '../../../db/array-rows.js'
import { createStorageService } from './service.js'
import { createPostgresStorageStore } from './store-postgres.js'
import { createStorageStore } from './store.js'
import type { GroupReport } from '../../../db/group-commit.js'

export type { AcquisitionStore, AcquisitionOfValue, RevenueDay, RevenueOfValue } from './acquisition-store.js'
export type { AggregatesStore, DailyTotals } from './aggregates-store.js'
export type { CohortCell, DimensionTotal, PlayerRevenue } from './breakdowns-store.js'
export type { GroupCohortCell } from './retention-store.js'
export type { FunnelCell, FunnelStepSpec, FunnelStore } from './funnel-store.js'
export type { RawEventRow, RawEventsStore } from './raw-events-store.js'
export type {
  FirstWindow,
  PlayerEventRow,
  PlayerFilter,
  PlayerRow,
  PlayerSort,
  PlayersStore,
} from './players-store.js'
export {
  CUSTOM_BIT,
  GROUP_COLUMNS,
  type GroupColumn,
  EVENT_TYPE_BY_BIT,
  TYPE_BIT,
  type AcceptedEvent,
  type Attribution,
  type GameEvent,
} from './types.js'

/** The gaming storage layers on this database's engine; it asks games whether a game has data. */
export function createStorage(deps: {
  db: Db
  clock: Clock
  games: GameService
  /** LINKD_INGEST_QUEUE_MAX: events of batches being stored beyond which ingestion answers 503. */
  queueMax: number
  /** The turns of the event loop ingestion's CPU-heavy work takes (daemon/turns.ts). */
  turn?: Turn
}): StorageService {
  const { db } = deps
  const groups = new Set<(report: GroupReport) => void>()
  const onGroup = (report: GroupReport) => {
    for (const listener of groups) listener(report)
  }
  const storage = createStorageService({
    queueMax: deps.queueMax,
    store:
      db.dialect === 'sqlite'
        ? createStorageStore(db.sqlite, db.kysely, onGroup, deps.turn)
        : createPostgresStorageStore(db.kysely),
    maintenance: createStorageMaintenanceStore(db.kysely, db.dialect === 'postgres' ? { lockPlayer } : {}),
    aggregates: createAggregatesStore(db.kysely),
    acquisition: createAcquisitionStore(db.kysely),
    players: createPlayersStore(db.kysely),
    funnels: createFunnelStore(db.kysely, db.dialect, db.dialect === 'sqlite' ? db.readPool() : undefined),
    rawEvents: createRawEventsStore(db.kysely, arrayRows(db)),
    clock: deps.clock,
    games: deps.games,
  })
  deps.games.useDataCheck((gameId) => storage.players.hasPlayers(gameId))
  return { ...storage, watchGroups: (listener) => void groups.add(listener) }
}

/** The storage layers have no routes of their own (ingest writes, analytics reads): their retention jobs. */
export function storageModule(deps: { storage: StorageService }): Module {
  return {
    name: 'gaming/storage',
    jobs: [gamingRawRetentionJob(deps.storage), gamingCompactionJob(deps.storage)],
  }
}
