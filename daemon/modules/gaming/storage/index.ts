/**
 * Gaming storage: every game's raw events, sessions, profiles and aggregates (the game_* tables but
 * games and game_batches), stored by one fold per batch, expired, purged per player, and read.
 */
import type { Clock } from '../../../clock.js'
import type { Db } from '../../../db/open.js'
import type { UnitOfWork } from '../../../db/unit-of-work.js'
import type { GameService } from '../games/index.js'
import type { IngestService } from '../ingest/index.js'
import type { Module } from '../../module.js'
import { createAcquisitionStore, type AcquisitionStore } from './acquisition-store.js'
import { createAggregatesStore, type AggregatesStore } from './aggregates-store.js'
import { gamingCompactionJob, gamingRawRetentionJob } from './jobs.js'
import { lockPlayer } from './locks-store-postgres.js'
import { createGamedataMaintenanceStore } from './maintenance-store.js'
import { createPlayersStore, type FirstWindow, type PlayersStore } from './players-store.js'
import { createGamedataService } from './service.js'
import { createPostgresGamedataStore } from './store-postgres.js'
import { createGamedataStore } from './store.js'
import type { AcceptedBatch, BatchCounts } from './types.js'
import type { GroupReport } from '../../../db/group-commit.js'

export type { AcquisitionStore, AcquisitionOfValue, RevenueDay, RevenueOfValue } from './acquisition-store.js'
export type { AggregatesStore, DailyTotals } from './aggregates-store.js'
export type { CohortCell, DimensionTotal, PlayerRevenue } from './breakdowns-store.js'
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
}): GamedataService {
  const { db } = deps
  const groups = new Set<(report: GroupReport) => void>()
  const onGroup = (report: GroupReport) => {
    for (const listener of groups) listener(report)
  }
  const gamedata = createGamedataService({
    queueMax: deps.queueMax,
    store:
      db.dialect === 'sqlite'
        ? createGamedataStore(db.sqlite, db.kysely, onGroup)
        : createPostgresGamedataStore(db.kysely),
    maintenance: createGamedataMaintenanceStore(db.kysely, db.dialect === 'postgres' ? { lockPlayer } : {}),
    aggregates: createAggregatesStore(db.kysely),
    acquisition: createAcquisitionStore(db.kysely),
    players: createPlayersStore(db.kysely),
    clock: deps.clock,
    games: deps.games,
  })
  deps.games.useDataCheck((gameId) => gamedata.players.hasPlayers(gameId))
  return { ...gamedata, watchGroups: (listener) => void groups.add(listener) }
}

/**
 * Work the caller runs in the same unit of work as a batch's storage (the ingestion keeps its
 * batch_id records this way): statements of the caller's own store, given `unit`. On PostgreSQL
 * a unit that met a concurrent one runs again from `before`: both must write the same things on
 * every run (nothing is consumed by a run whose transaction rolled back).
 */
export interface BatchUnit<R> {
  /** Runs first; a value other than undefined ends the unit at once (nothing stored). */
  before(unit: UnitOfWork): Promise<R | undefined>
  /** Runs last, with what the batch added; its value is the result of `storeBatch`. */
  after(counts: BatchCounts, unit: UnitOfWork): Promise<R>
}

/** What raw retention deleted: events, sessions, and the rows of each raw expirer by its name. */
export type RawExpiry = { events: number; sessions: number } & Record<string, number>

/** The gaming storage layers: the ingestion's writes, retention, the GDPR purge, and the reads. */
export interface GamedataService {
  /**
   * Takes a batch's places in the queue of batches being stored (503 ServiceUnavailable with
   * Retry-After when it is full: LINKD_INGEST_QUEUE_MAX events); returns what gives them back.
   */
  admit(events: number): () => void
  /** Events of the batches being stored now, and the batches refused since start (metrics). */
  queue(): { events: number; refused: number }
  /** Resolves once every batch committed so far is durable (what a committed read found). */
  durable(): Promise<void>
  /** Waits for the batches being stored, then lets go of the database files it holds. */
  close(): Promise<void>
  /** Each group of batches committed together (SQLite), for the metrics. */
  watchGroups(listener: (report: GroupReport) => void): void
  /** Stores an accepted batch in every layer in one durable transaction (503 after repeated conflicts). */
  storeBatch<R>(batch: AcceptedBatch, unit: BatchUnit<R>): Promise<R>
  /** Deletes raw events and sessions past each game's raw retention, with the raw expirers' rows. */
  expireRaw(): Promise<RawExpiry>
  /** Registers another per-game store whose rows expire with the raw events (the fraud events). */
  addRawExpirer(name: string, expire: (gameId: string, cutoff: number) => Promise<number>): void
  /** Deletes aggregate days past each game's compacted retention, with the compacted expirers' rows. */
  compact(): Promise<number>
  /** Registers another store whose rows follow the compacted retention (gameId null: rows of no game). */
  addCompactedExpirer(name: string, expire: (gameId: string | null, cutoff: number) => Promise<number>): void
  /** Irreversibly deletes one player's rows from every per-player layer and the purgers' stores. */
  purgePlayer(gameId: string, playerId: string): Promise<Record<string, number>>
  /** Registers another per-player store for the GDPR purge (the fraud records). */
  addPlayerPurger(name: string, purge: (gameId: string, playerId: string) => Promise<number>): void
  /** Reads of the aggregates: totals, distinct players, cohorts, payers, dimensions. */
  aggregates: AggregatesStore
  /** Reads of revenue and acquisition per day and per dimension value. */
  acquisition: AcquisitionStore
  /** Reads of the player profiles and of one player's own events. */
  players: PlayersStore
  /** The SKAN optimizer's history: the first conversion windows that are over, installed since `sinceDay`. */
  firstWindowHistory(gameId: string, sinceDay?: number): AsyncGenerator<FirstWindow[]>
}

/** The storage layers have no routes of their own (ingest writes, analytics reads): their retention jobs. */
export function gamedataModule(deps: {
  gamedata: GamedataService
  ingest: Pick<IngestService, 'pruneBatches'>
}): Module {
  return {
    name: 'gaming/storage',
    jobs: [gamingRawRetentionJob(deps.gamedata, deps.ingest), gamingCompactionJob(deps.gamedata)],
  }
}
