/** The storage module's interfaces, imported by its own files (other modules import its index.ts). */
import type { UnitOfWork } from '../../../db/unit-of-work.js'
import type { AcquisitionStore } from './acquisition-store.js'
import type { AggregatesStore } from './aggregates-store.js'
import type { FirstWindow, PlayersStore } from './players-store.js'
import type { FunnelStore } from './funnel-store.js'
import type { RawEventsStore } from './raw-events-store.js'
import type { AcceptedBatch, BatchCounts } from './types.js'
import type { GroupReport } from '../../../db/group-commit.js'

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
export interface StorageService {
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
  /** Runs the raw pruners: how many rows each deleted, by name. */
  pruneRaw(): Promise<Record<string, number>>
  /** Registers a store whose rows expire on a clock of their own (ingest's batch ids), run with the raw retention. */
  addRawPruner(name: string, prune: () => Promise<number>): void
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
  /** Reads of a funnel: raw events of one type in time order, the players' acquisition values. */
  funnels: FunnelStore
  /** Reads of the raw events, page by page (the raw export). */
  rawEvents: RawEventsStore
  /** The SKAN optimizer's history: the first conversion windows that are over, installed since `sinceDay`. */
  firstWindowHistory(gameId: string, sinceDay?: number): AsyncGenerator<FirstWindow[]>
}
