/**
 * The gamedata module owns the four gaming storage layers of every game: raw events, sessions,
 * player profiles and aggregates (player-days, daily totals and dimensions,
 * distinct-player gaps, cohorts). It stores the batches the ingestion accepted (load a snapshot,
 * fold, save: one transaction), runs raw retention and compaction, purges a player (GDPR) and
 * answers the aggregate reads of gaming analytics. Nothing else touches these tables.
 */
import type { Clock } from '../../clock.js'
import { randomToken } from '../../crypto.js'
import type { GameService } from '../games/service.js'
import { compactedCutoffDay } from '../games/service.js'
import { GAME_LIMITS } from '../../../src/contract/limits.js'
import type { AggregatesStore } from './aggregates-store.js'
import type { AcquisitionStore } from './acquisition-store.js'
import {
  FIRST_WINDOW_LAST_DAY,
  type PlayerFilter,
  type PlayerSort,
  type PlayersStore,
} from './players-store.js'
import { fold } from './fold/index.js'
import type { GamedataMaintenanceStore } from './maintenance-store.js'
import type { GamedataStore } from './store.js'
import type { AcceptedBatch, BatchCounts } from './types.js'
import type { UnitOfWork } from '../../db/unit-of-work.js'
import { WriteConflictError } from '../../db/errors.js'
import { AppError } from '../../http/errors.js'
import { DAY_MS, utcDayNumber } from '../../clock.js'

/** Session ids start with the start time so that inserts append to the primary key. */
const newSessionId = (ts: number) => `s${ts.toString(36).padStart(9, '0')}${randomToken().slice(0, 10)}`

export interface GamedataDeps {
  store: GamedataStore
  maintenance: GamedataMaintenanceStore
  aggregates: AggregatesStore
  /** Revenue and acquisition reads. */
  acquisition: AcquisitionStore
  /** Player profile reads. */
  players: PlayersStore
  clock: Clock
  games: Pick<GameService, 'all'>
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

export function createGamedataService(deps: GamedataDeps) {
  const purgers = new Map<string, (gameId: string, playerId: string) => Promise<number>>()
  const rawExpirers = new Map<string, (gameId: string, cutoff: number) => Promise<number>>()
  const compactedExpirers = new Map<string, (gameId: string | null, cutoff: number) => Promise<number>>()
  return {
    /**
     * Stores an accepted batch in every layer, in one transaction committed durably (SQLite:
     * synchronous=FULL), the only one in progress for its players and batch_id (`unit` may run
     * more than once on PostgreSQL: see GamedataStore.unitOfWork): once this resolves, the batch
     * survives a power loss, and concurrent batches of the game (other processes) lose nothing.
     * 503 (Retry-After: 1) when concurrent batches kept getting in its way.
     */
    async storeBatch<R>(batch: AcceptedBatch, unit: BatchUnit<R>): Promise<R> {
      const scope = { batchId: batch.batchId, playerIds: batch.events.map((j) => j.event.playerId) }
      try {
        return await deps.store.unitOfWork(
          batch.gameId,
          async (work) => {
            const prior = await unit.before(work)
            if (prior !== undefined) return prior
            const snapshot = await deps.store.loadSnapshot(work, batch.gameId, batch.events)
            const changes = fold(snapshot, batch.events, newSessionId)
            await deps.store.save(work, batch, changes)
            return unit.after(
              { stored: changes.stored, duplicates: changes.duplicates, flagged: changes.flagged },
              work,
            )
          },
          scope,
        )
      } catch (err) {
        if (err instanceof WriteConflictError)
          throw new AppError(
            'ServiceUnavailable',
            `the batch met concurrent batches of the same players ${err.attempts} times: nothing was stored, send it again`,
            undefined,
            { 'retry-after': '1' },
          )
        throw err
      }
    },

    /**
     * Raw events and sessions older than each game's raw retention (or its floor) are deleted,
     * with the rows of the extra raw expirers (fraud events), counted under their names.
     */
    async expireRaw(): Promise<{ events: number; sessions: number } & Record<string, number>> {
      const now = deps.clock.now()
      const total: { events: number; sessions: number } & Record<string, number> = { events: 0, sessions: 0 }
      for (const name of rawExpirers.keys()) total[name] = 0
      for (const g of await deps.games.all()) {
        const cutoff = Math.max(now - g.rawRetentionDays * DAY_MS, g.rawFloor)
        const r = await deps.maintenance.deleteRawBefore(g.id, cutoff)
        total.events += r.events
        total.sessions += r.sessions
        for (const [name, expire] of rawExpirers)
          total[name] = (total[name] ?? 0) + (await expire(g.id, cutoff))
      }
      return total
    },

    /** Registers another per-game store whose rows expire with the raw events (the fraud events). */
    addRawExpirer(name: string, expire: (gameId: string, cutoff: number) => Promise<number>): void {
      rawExpirers.set(name, expire)
    },

    /**
     * Aggregate days beyond each game's compacted retention (or its floor) are deleted, with the
     * rows of the extra compacted expirers (SKAN postbacks).
     */
    async compact(): Promise<number> {
      const now = deps.clock.now()
      let n = 0
      for (const g of await deps.games.all()) {
        const cutoff = Math.max(compactedCutoffDay(now, g.compactedRetentionMonths), g.compactedFloorDay)
        n += await deps.maintenance.deleteAggregatesBefore(g.id, cutoff)
        for (const expire of compactedExpirers.values()) n += await expire(g.id, cutoff * DAY_MS)
      }
      // Rows of no game (unmatched postbacks) keep the default compacted retention.
      const orphanCutoff = compactedCutoffDay(now, GAME_LIMITS.compactedRetentionMonthsDefault) * DAY_MS
      for (const expire of compactedExpirers.values()) n += await expire(null, orphanCutoff)
      return n
    },

    /**
     * Registers another store whose rows follow the compacted retention (the SKAN postbacks):
     * called per game with its cutoff (Unix ms; rows before it go), then once with `null` and the
     * default retention's cutoff for rows that belong to no game. Returns how many it deleted.
     */
    addCompactedExpirer(
      name: string,
      expire: (gameId: string | null, cutoff: number) => Promise<number>,
    ): void {
      compactedExpirers.set(name, expire)
    },

    /**
     * Irreversibly deletes one player's rows from every per-player layer (raw events with their IP
     * and device data, sessions, profile with attribution and fingerprint, player-days).
     * Anonymous daily totals stay. Extra purgers (fraud records) run in the same call.
     */
    async purgePlayer(gameId: string, playerId: string): Promise<Record<string, number>> {
      const out: Record<string, number> = await deps.maintenance.purgePlayer(gameId, playerId)
      for (const [name, purge] of purgers) out[name] = await purge(gameId, playerId)
      return out
    },

    /** Registers another per-player store for the GDPR purge (the fraud issue adds its records). */
    addPlayerPurger(name: string, purge: (gameId: string, playerId: string) => Promise<number>): void {
      purgers.set(name, purge)
    },

    /**
     * The aggregate reads of gaming analytics (layer 4 only; never raw events; player-days only
     * through the partial index of the paying days).
     */
    aggregates: {
      dailyTotals: (gameId: string, start: number, end: number) =>
        deps.aggregates.dailyTotals(gameId, start, end),
      activeOn: (gameId: string, day: number) => deps.aggregates.activeOn(gameId, day),
      distinct: (gameId: string, kind: 'active' | 'paying', start: number, end: number) =>
        deps.aggregates.distinct(gameId, kind, start, end),
      retention: (gameId: string, offset: number, start: number, end: number) =>
        deps.aggregates.retention(gameId, offset, start, end),
      // Retention cohorts, leaderboard, geography, events.
      cohortCells: (gameId: string, start: number, end: number, offsets: number[]) =>
        deps.aggregates.cohortCells(gameId, start, end, offsets),
      topPayers: (gameId: string, start: number, end: number, limit: number) =>
        deps.aggregates.topPayers(gameId, start, end, limit),
      payersByLifetime: (
        gameId: string,
        after: { revenueMicros: number; playerId: string } | null,
        pageSize: number,
      ) => deps.aggregates.payersByLifetime(gameId, after, pageSize),
      revenueOfPlayers: (gameId: string, playerIds: string[], start: number, end: number) =>
        deps.aggregates.revenueOfPlayers(gameId, playerIds, start, end),
      dimensionTotals: (gameId: string, dim: 'country' | 'event_type', start: number, end: number) =>
        deps.aggregates.dimensionTotals(gameId, dim, start, end),
      distinctPerKind: (gameId: string, family: 'country:' | 'type:', start: number, end: number) =>
        deps.aggregates.distinctPerKind(gameId, family, start, end),
      // Revenue and acquisition.
      revenueByDay: (gameId: string, start: number, end: number) =>
        deps.acquisition.revenueByDay(gameId, start, end),
      revenueByDim: (gameId: string, dim: string, start: number, end: number) =>
        deps.acquisition.revenueByDim(gameId, dim, start, end),
      payingByDim: (gameId: string, dim: string, start: number, end: number) =>
        deps.acquisition.payingByDim(gameId, dim, start, end),
      transactions: (gameId: string, start: number, end: number) =>
        deps.acquisition.transactions(gameId, start, end),
      acquisitionByDim: (gameId: string, dim: string, start: number, end: number) =>
        deps.acquisition.acquisitionByDim(gameId, dim, start, end),
    },

    /** Reads of the player profiles (layer 3) and of one player's own newest events. */
    players: {
      hasPlayers: (gameId: string) => deps.players.hasPlayers(gameId),
      total: (gameId: string) => deps.players.total(gameId),
      revenueBand: (gameId: string, from: number, below: number | null) =>
        deps.players.revenueBand(gameId, from, below),
      page: (
        gameId: string,
        filter: PlayerFilter,
        sort: PlayerSort,
        order: 'asc' | 'desc',
        page: { offset: number; limit: number },
      ) => deps.players.page(gameId, filter, sort, order, page),
      /** Explorer rows by player id in keyset pages (constant memory): the export's player source. */
      stream: (gameId: string, filter: PlayerFilter, pageSize?: number) =>
        deps.players.stream(gameId, filter, pageSize),
      profile: (gameId: string, playerId: string) => deps.players.profile(gameId, playerId),
      events: (gameId: string, playerId: string, page: { offset: number; limit: number }) =>
        deps.players.events(gameId, playerId, page),
      /**
       * The SKAN optimizer's history: each player's revenue and event types in the first
       * conversion window (days 0-2 after the install day), for the players whose window is over
       * (installed before the day before yesterday) and installed on or after `sinceDay`; in
       * pages (one install day each).
       */
      firstWindowHistory: (gameId: string, sinceDay?: number) =>
        deps.players.firstWindows(
          gameId,
          sinceDay ?? null,
          utcDayNumber(deps.clock.now()) - FIRST_WINDOW_LAST_DAY - 1,
        ),
    },
  }
}
export type GamedataService = ReturnType<typeof createGamedataService>
export type GamedataAggregates = GamedataService['aggregates']
export type GamedataPlayers = GamedataService['players']
