/**
 * The storage module owns the four gaming storage layers of every game: raw events, sessions,
 * player profiles and aggregates (player-days, daily totals and dimensions,
 * distinct-player gaps, cohorts). It stores the batches the ingestion accepted (load a snapshot,
 * fold, save: one transaction), runs raw retention and compaction, purges a player (GDPR) and
 * answers the aggregate reads of gaming analytics. Nothing else touches these tables.
 */
import type { Clock } from '../../../clock.js'
import { randomToken } from '../../../crypto.js'
import type { GameService } from '../games/index.js'
import { compactedCutoffDay } from '../games/index.js'
import { GAME_LIMITS } from '../../../../src/contract/limits.js'
import type { AggregatesStore } from './aggregates-store.js'
import type { AcquisitionStore } from './acquisition-store.js'
import { FIRST_WINDOW_LAST_DAY, type PlayersStore } from './players-store.js'
import type { FunnelStore } from './funnel-store.js'
import type { RawEventsStore } from './raw-events-store.js'
import { creditClicks } from './credit.js'
import { fold } from './fold/index.js'
import type { StorageMaintenanceStore } from './maintenance-store.js'
import type { StorageStore } from './store.js'
import type { BatchUnit, StorageService, RawExpiry } from './api.js'
import type { AcceptedBatch } from './types.js'
import { WriteConflictError } from '../../../db/errors.js'
import { AppError } from '../../../http/errors.js'
import { DAY_MS, utcDayNumber } from '../../../clock.js'

/** About what a batch's rows take to write: its events' data plus a fixed part per event. */
const batchBytes = (batch: AcceptedBatch) =>
  batch.events.reduce((n, { event }) => n + 256 + (event.dataJson?.length ?? 0), 0)

/** Session ids start with the start time so that inserts append to the primary key. */
const newSessionId = (ts: number) => `s${ts.toString(36).padStart(9, '0')}${randomToken().slice(0, 10)}`

export interface StorageDeps {
  store: StorageStore
  /** Events of batches being stored beyond which `admit` refuses (LINKD_INGEST_QUEUE_MAX). */
  queueMax: number
  maintenance: StorageMaintenanceStore
  aggregates: AggregatesStore
  /** Revenue and acquisition reads. */
  acquisition: AcquisitionStore
  /** Player profile reads. */
  players: PlayersStore
  /** Funnel reads (raw events of a type, players' acquisition values). */
  funnels: FunnelStore
  /** Raw event reads (the raw export). */
  rawEvents: RawEventsStore
  clock: Clock
  games: Pick<GameService, 'all'>
}

export function createStorageService(deps: StorageDeps): Omit<StorageService, 'watchGroups'> {
  const purgers = new Map<string, (gameId: string, playerId: string) => Promise<number>>()
  const rawExpirers = new Map<string, (gameId: string, cutoff: number) => Promise<number>>()
  const rawPruners = new Map<string, () => Promise<number>>()
  const compactedExpirers = new Map<string, (gameId: string | null, cutoff: number) => Promise<number>>()
  const queue = { events: 0, refused: 0 }
  return {
    /**
     * Takes `events` places in the queue of batches being stored, or refuses the batch (503 with
     * Retry-After) when the queue would pass its bound; a batch always fits an empty queue. The
     * returned function gives the places back (once the batch is stored or failed).
     */
    admit(events: number): () => void {
      if (queue.events > 0 && queue.events + events > deps.queueMax) {
        queue.refused++
        throw new AppError(
          'ServiceUnavailable',
          `ingestion is saturated (${queue.events} events waiting to be stored): nothing was stored, send the batch again`,
          undefined,
          { 'retry-after': '1' },
        )
      }
      queue.events += events
      let given = false
      return () => {
        if (given) return
        given = true
        queue.events -= events
      }
    },

    queue: () => ({ events: queue.events, refused: queue.refused }),

    durable: () => deps.store.durable(),
    close: () => deps.store.close(),

    /**
     * Stores an accepted batch in every layer, in one transaction committed durably (SQLite:
     * synchronous=FULL), the only one in progress for its players and batch_id (`unit` may run
     * more than once on PostgreSQL: see StorageStore.unitOfWork): once this resolves, the batch
     * survives a power loss, and concurrent batches of the game (other processes) lose nothing.
     * 503 (Retry-After: 1) when concurrent batches kept getting in its way.
     */
    async storeBatch<R>(batch: AcceptedBatch, unit: BatchUnit<R>): Promise<R> {
      const scope = { batchId: batch.batchId, playerIds: batch.events.map((j) => j.event.playerId) }
      const weight = { events: batch.events.length, bytes: batchBytes(batch) }
      try {
        return await deps.store.unitOfWork(
          batch.gameId,
          async (work) => {
            const prior = await unit.before(work)
            if (prior !== undefined) return prior
            const snapshot = await deps.store.loadSnapshot(work, batch.gameId, batch.events)
            const events = await creditClicks(deps.store, work, batch, snapshot)
            const changes = fold(snapshot, events, newSessionId)
            await deps.store.save(work, batch, changes)
            return unit.after(
              { stored: changes.stored, duplicates: changes.duplicates, flagged: changes.flagged },
              work,
            )
          },
          scope,
          weight,
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
    async expireRaw(): Promise<RawExpiry> {
      const now = deps.clock.now()
      const total: RawExpiry = { events: 0, sessions: 0 }
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

    /** Runs the raw pruners: how many rows each deleted, by name. */
    async pruneRaw(): Promise<Record<string, number>> {
      const pruned: Record<string, number> = {}
      for (const [name, prune] of rawPruners) pruned[name] = await prune()
      return pruned
    },

    /** Registers a store whose rows expire on a clock of their own (ingest's batch ids), run with the raw retention. */
    addRawPruner(name: string, prune: () => Promise<number>): void {
      rawPruners.set(name, prune)
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

    aggregates: deps.aggregates,
    acquisition: deps.acquisition,
    players: deps.players,
    funnels: deps.funnels,
    rawEvents: deps.rawEvents,

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
  }
}
