/**
 * The SQLite store of the gaming storage layers: it reads a batch's snapshot by the plan of
 * snapshot-plan.ts (keys, then snapshotOf), one player or session at a time, and saves the fold's
 * changes with prepared better-sqlite3 statements, positional, in WRITE_ORDER's order: the plan's
 * generic steps measured ~1.4x slower per save here. Batches commit in groups, each in its own
 * savepoint, durable before they resolve (daemon/db/group-commit.ts). The PostgreSQL store behind
 * the same port is store-postgres.ts.
 */
import type SQLite from 'better-sqlite3'
import type { Kysely } from 'kysely'
import type { Database } from '../../../db/schema.js'
import { addCountersSql } from '../../../db/counters.js'
import {
  createGroupCommitter,
  type GroupLimits,
  type GroupReport,
  type UnitWeight,
} from '../../../db/group-commit.js'
import { sqliteGroupEngine } from '../../../db/sqlite-group-engine.js'
import { assertOpenOn, syncUnit, type UnitOfWork } from '../../../db/unit-of-work.js'
import type { Turn } from '../../../turns.js'
import {
  ACQUISITION_COUNTERS,
  addsOf,
  DAILY_COUNTERS,
  DIM_COUNTERS,
  MONEY_CEILINGS,
  mergeByGame,
  type Adds,
  type GameAdds,
} from './snapshot-plan.js'
import { batchKeys, sessionKeys, snapshotOf } from './snapshot-read.js'
import type {
  AcceptedBatch,
  AcceptedEvent,
  BatchLocks,
  Changes,
  PlayerDayRow,
  ProfileRow,
  SessionRow,
  Snapshot,
} from './types.js'

/** The port of the batch write path: one implementation per engine. */
export interface StorageStore {
  /**
   * Runs `work` (the loads, the fold, the saves, and other stores' statements given the unit)
   * atomically, the only one writing the rows of `scope`'s players (and handling its batch_id)
   * meanwhile, or without `scope` the only one writing the game's rows; once this resolves, the
   * work is committed durably (SQLite: the WAL synced; PostgreSQL: synchronous_commit). SQLite
   * has one writer: units run one after another, in groups sharing a transaction and its sync,
   * each in a savepoint (a unit that throws leaves the others of its group stored); `weight`
   * bounds a group. PostgreSQL may run `work` again in a new transaction when a concurrent one
   * got in its way (nothing of the first run stays), and throws a WriteConflictError
   * (daemon/db/errors.ts) when that keeps happening. On both, `work` may run more than once.
   */
  unitOfWork<T>(
    gameId: string,
    work: (unit: UnitOfWork) => Promise<T>,
    scope?: BatchLocks,
    weight?: UnitWeight,
  ): Promise<T>
  /** Resolves once every unit committed so far is durable (a committed read may precede it). */
  durable(): Promise<void>
  /** Waits for the units handed in, then lets go of what it holds (the WAL file). */
  close(): Promise<void>
  /** The rows the batch's events can touch, as the tables hold them before the batch. */
  loadSnapshot(unit: UnitOfWork, gameId: string, events: readonly AcceptedEvent[]): Promise<Snapshot>
  /** Writes the fold's changes. */
  save(unit: UnitOfWork, batch: AcceptedBatch, changes: Changes): Promise<void>
  /**
   * Claims click ids for installs (install_click_claims): returns the ids this unit claimed; an
   * id claimed before (or by a concurrent batch that commits) is not. PostgreSQL waits for a
   * concurrent claim of the same id to commit or roll back.
   */
  claimClicks(unit: UnitOfWork, claims: ClickClaims): Promise<Set<string>>
}

/** The click ids an organization's batch claims, each for one player of the game. */
export interface ClickClaims {
  organizationId: string
  gameId: string
  at: number
  claims: ReadonlyArray<{ clickId: string; playerId: string }>
}

/** The bounds of a group of batches (one transaction, one sync). */
export const GROUP_LIMITS: GroupLimits = { maxEvents: 10_000, maxBytes: 16 * 1024 * 1024 }

export function createStorageStore(
  sqlite: SQLite.Database,
  db: Kysely<Database>,
  onGroup?: (report: GroupReport) => void,
  /** The turns of the event loop the group writer shares with the parsing of batches (turns.ts). */
  turn?: Turn,
): StorageStore {
  /** Where a unit of a group hands its counters (merged and written last by the group). */
  const sinks = new WeakMap<UnitOfWork, (d: GameAdds) => void>()
  const committer = createGroupCommitter<null, GameAdds>(
    sqliteGroupEngine(db as Kysely<unknown>, sqlite, null),
    {
      limits: GROUP_LIMITS,
      ...(onGroup ? { onGroup } : {}),
      ...(turn ? { yieldTo: turn } : {}),
      flush: async (_, deferred) => {
        for (const [gameId, adds] of mergeByGame(deferred)) saveAdds(gameId, adds)
      },
    },
  )
  // SQLite-only: prepared statements (the hot path); nothing outside this file sees them.
  const PLAYER_DAYS = `SELECT player_id, day, install_day, events, revenue_micros, event_types, custom_events
    FROM game_player_days WHERE game_id = ? AND player_id = ?`
  const statements = {
    storedEventIds: sqlite
      .prepare(
        'SELECT event_id FROM game_events WHERE game_id = ? AND event_id IN (SELECT value FROM json_each(?))',
      )
      .pluck(),
    player: sqlite.prepare('SELECT * FROM game_players WHERE game_id = ? AND player_id = ?'),
    playerDays: sqlite.prepare(`${PLAYER_DAYS} ORDER BY day`),
    playerDay: sqlite.prepare(`${PLAYER_DAYS} AND day = ?`),
    sessionBySid: sqlite.prepare(
      'SELECT * FROM game_sessions WHERE game_id = ? AND player_id = ? AND session_id = ? ORDER BY started_at DESC LIMIT 1',
    ),
    sessionById: sqlite.prepare('SELECT * FROM game_sessions WHERE game_id = ? AND id = ?'),
  }
  const writes = {
    insertEvent: sqlite.prepare(
      `INSERT INTO game_events (game_id, event_id, event_type, player_id, session_id, platform, ts, received_at,
         batch_id, revenue_type, revenue_micros, currency, country, ip, device_fingerprint, verdict, data)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (game_id, event_id) DO NOTHING`,
    ),
    // New rows are plain INSERTs; existing ones get UPDATEs of the columns that changed, so that
    // indexes on unchanged columns are not rewritten (SQLite updates the indexes of SET columns).
    insertPlayer: sqlite.prepare(
      `INSERT INTO game_players (game_id, player_id, first_seen_at, install_day, last_active_at, last_active_day,
         platform, country, device_fingerprint, affiliate, campaign, source, medium, link_id, click_id, session_count,
         event_count, transactions, revenue_iap_micros, revenue_ad_micros, revenue_subscription_micros,
         revenue_total_micros, first_purchase_at, current_session_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    updatePlayerActivity: sqlite.prepare(
      `UPDATE game_players SET last_active_at = ?, last_active_day = ?, session_count = ?, event_count = ?,
         current_session_id = ? WHERE game_id = ? AND player_id = ?`,
    ),
    updatePlayerAll: sqlite.prepare(
      `UPDATE game_players SET first_seen_at = ?, install_day = ?, last_active_at = ?, last_active_day = ?,
         country = ?, device_fingerprint = ?, affiliate = ?, campaign = ?, source = ?, medium = ?, link_id = ?,
         click_id = ?, session_count = ?, event_count = ?, transactions = ?, revenue_iap_micros = ?, revenue_ad_micros = ?,
         revenue_subscription_micros = ?, revenue_total_micros = ?, first_purchase_at = ?, current_session_id = ?
       WHERE game_id = ? AND player_id = ?`,
    ),
    claimClick: sqlite.prepare(
      `INSERT INTO install_click_claims (organization_id, click_id, game_id, player_id, claimed_at)
       VALUES (?, ?, ?, ?, ?) ON CONFLICT (organization_id, click_id) DO NOTHING`,
    ),
    moveInstallDay: sqlite.prepare(
      'UPDATE game_player_days SET install_day = ? WHERE game_id = ? AND player_id = ?',
    ),
    insertPlayerDay: sqlite.prepare(
      `INSERT INTO game_player_days (game_id, player_id, day, install_day, events, revenue_micros, event_types,
         custom_events)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    updatePlayerDay: sqlite.prepare(
      `UPDATE game_player_days SET events = ?, revenue_micros = ?, event_types = ?, custom_events = ?
       WHERE game_id = ? AND player_id = ? AND day = ?`,
    ),
    insertSession: sqlite.prepare(
      `INSERT INTO game_sessions (game_id, id, player_id, session_id, started_at, last_event_at, ended_at, events)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    updateSession: sqlite.prepare(
      'UPDATE game_sessions SET last_event_at = ?, ended_at = ?, events = ? WHERE game_id = ? AND id = ?',
    ),
    updateSessionStart: sqlite.prepare(
      'UPDATE game_sessions SET started_at = ?, last_event_at = ?, ended_at = ?, events = ? WHERE game_id = ? AND id = ?',
    ),
    // Aggregates: each row's counters are added to the stored ones (daemon/db/counters.ts).
    daily: sqlite.prepare(addCountersSql('game_daily', ['game_id', 'day'], DAILY_COUNTERS, MONEY_CEILINGS)),
    dim: sqlite.prepare(
      addCountersSql('game_daily_dims', ['game_id', 'day', 'dim', 'value'], DIM_COUNTERS, MONEY_CEILINGS),
    ),
    gap: sqlite.prepare(addCountersSql('game_day_gaps', ['game_id', 'kind', 'day', 'prev_day'], ['players'])),
    acquisition: sqlite.prepare(
      addCountersSql(
        'game_acquisition_daily',
        ['game_id', 'day', 'dim', 'value'],
        ACQUISITION_COUNTERS,
        MONEY_CEILINGS,
      ),
    ),
    playerTotal: sqlite.prepare(addCountersSql('game_player_totals', ['game_id'], ['players'])),
    dimPayingGap: sqlite.prepare(
      addCountersSql('game_dim_paying_gaps', ['game_id', 'dim', 'value', 'day', 'prev_day'], ['players']),
    ),
    cohort: sqlite.prepare(
      addCountersSql('game_cohorts', ['game_id', 'install_day', 'day_offset'], ['players']),
    ),
    cohortDim: sqlite.prepare(
      addCountersSql(
        'game_cohort_dims',
        ['game_id', 'dim', 'install_day', 'day_offset', 'value'],
        ['players'],
      ),
    ),
    cohortEvent: sqlite.prepare(
      addCountersSql(
        'game_cohort_events',
        ['game_id', 'event_type', 'dim', 'install_day', 'day_offset', 'value'],
        ['players'],
      ),
    ),
  }

  /** Writes a batch's own rows of the fold's changes: new rows as INSERTs, existing ones as narrow UPDATEs. */
  function saveOwn(batch: AcceptedBatch, c: Changes): void {
    const gameId = batch.gameId
    for (const { event: e, verdict } of c.newEvents)
      // prettier-ignore
      writes.insertEvent.run(gameId, e.eventId, e.type, e.playerId, e.sessionId, e.platform, e.ts, batch.receivedAt,
        batch.batchId, e.revenueType, e.revenueMicros, e.currency, e.country, batch.ip, e.deviceFingerprint,
        verdict, e.dataJson)
    for (const { playerId, installDay } of c.installDayMoves)
      writes.moveInstallDay.run(installDay, gameId, playerId)
    for (const { row: p, write } of c.profiles) {
      // prettier-ignore
      if (write === 'insert')
        writes.insertPlayer.run(gameId, p.player_id, p.first_seen_at, p.install_day, p.last_active_at, p.last_active_day,
          p.platform, p.country, p.device_fingerprint, p.affiliate, p.campaign, p.source, p.medium, p.link_id, p.click_id, p.session_count,
          p.event_count, p.transactions, p.revenue_iap_micros, p.revenue_ad_micros, p.revenue_subscription_micros,
          p.revenue_total_micros, p.first_purchase_at, p.current_session_id)
      else if (write === 'all')
        writes.updatePlayerAll.run(p.first_seen_at, p.install_day, p.last_active_at, p.last_active_day, p.country,
          p.device_fingerprint, p.affiliate, p.campaign, p.source, p.medium, p.link_id, p.click_id, p.session_count, p.event_count,
          p.transactions, p.revenue_iap_micros, p.revenue_ad_micros, p.revenue_subscription_micros,
          p.revenue_total_micros, p.first_purchase_at, p.current_session_id, gameId, p.player_id)
      else
        writes.updatePlayerActivity.run(p.last_active_at, p.last_active_day, p.session_count, p.event_count,
          p.current_session_id, gameId, p.player_id)
    }
    for (const { row: d, isNew } of c.playerDays)
      if (isNew)
        writes.insertPlayerDay.run(
          gameId,
          d.player_id,
          d.day,
          d.install_day,
          d.events,
          d.revenue_micros,
          d.event_types,
          d.custom_events,
        )
      else
        writes.updatePlayerDay.run(
          d.events,
          d.revenue_micros,
          d.event_types,
          d.custom_events,
          gameId,
          d.player_id,
          d.day,
        )
    for (const { row: s, write } of c.sessions) {
      // prettier-ignore
      if (write === 'insert')
        writes.insertSession.run(gameId, s.id, s.player_id, s.session_id, s.started_at, s.last_event_at, s.ended_at, s.events)
      else if (write === 'start')
        writes.updateSessionStart.run(s.started_at, s.last_event_at, s.ended_at, s.events, gameId, s.id)
      else writes.updateSession.run(s.last_event_at, s.ended_at, s.events, gameId, s.id)
    }
  }

  /** What batches add to the counter rows every batch of the game shares (one row per key). */
  function saveAdds(gameId: string, c: Adds): void {
    for (const d of c.daily)
      // prettier-ignore
      writes.daily.run(gameId, d.day, d.active_players, d.new_players, d.paying_players, d.sessions, d.session_seconds,
        d.events, d.flagged_events, d.transactions, d.revenue_iap_micros, d.revenue_ad_micros,
        d.revenue_subscription_micros)
    for (const d of c.dims)
      // prettier-ignore
      writes.dim.run(gameId, d.day, d.dim, d.value, d.players, d.new_players, d.paying_players, d.events, d.transactions,
        d.revenue_iap_micros, d.revenue_ad_micros, d.revenue_subscription_micros, d.sessions)
    for (const x of c.gaps) writes.gap.run(gameId, x.kind, x.day, x.prevDay, x.players)
    for (const x of c.cohorts) writes.cohort.run(gameId, x.installDay, x.dayOffset, x.players)
    for (const x of c.cohortDims)
      writes.cohortDim.run(gameId, x.dim, x.installDay, x.dayOffset, x.value, x.players)
    for (const x of c.cohortEvents)
      writes.cohortEvent.run(gameId, x.eventType, x.dim, x.installDay, x.dayOffset, x.value, x.players)
    // Acquisition: cost, commission, conversions; paying players per platform / source.
    for (const x of c.acquisition)
      writes.acquisition.run(gameId, x.day, x.dim, x.value, x.cost_micros, x.commission_micros, x.conversions)
    for (const x of c.dimPayingGaps)
      writes.dimPayingGap.run(gameId, x.dim, x.value, x.day, x.prevDay, x.players)
    for (const x of c.playerTotals) writes.playerTotal.run(gameId, x.players)
  }

  /** The rows the batch's events can touch (snapshot-plan.ts), one player or session at a time. */
  function loadSnapshotNow(gameId: string, events: readonly AcceptedEvent[]): Snapshot {
    const { eventIds, playerIds } = batchKeys(events)
    const profiles = new Map<string, ProfileRow>()
    for (const playerId of playerIds) {
      const profile = statements.player.get(gameId, playerId) as ProfileRow | undefined
      if (profile) profiles.set(playerId, profile)
    }
    const { currentIds, pairs } = sessionKeys(events, profiles)
    const found = (row: unknown) => row as SessionRow | undefined
    return snapshotOf(events, {
      storedEventIds: statements.storedEventIds.all(gameId, JSON.stringify(eventIds)) as string[],
      profiles,
      // Read by the fold when it needs them, inside the batch's unit (nothing writes in between).
      days: (playerId) => statements.playerDays.all(gameId, playerId) as PlayerDayRow[],
      dayRow: (playerId, day) => statements.playerDay.get(gameId, playerId, day) as PlayerDayRow | undefined,
      currentSessions: currentIds
        .map((id) => found(statements.sessionById.get(gameId, id)))
        .filter((s) => s !== undefined),
      latestSessions: pairs
        .map(([playerId, sid]) => found(statements.sessionBySid.get(gameId, playerId, sid)))
        .filter((s) => s !== undefined),
    })
  }

  return {
    durable: () => committer.durable(),
    close: () => committer.close(),
    async loadSnapshot(unit, gameId, events) {
      assertOpenOn(unit, sqlite)
      return loadSnapshotNow(gameId, events)
    },
    /**
     * The plan's writes, in its order: new rows as INSERTs, existing ones as narrow UPDATEs; the
     * counters handed to the group (written once for all its batches), or written now outside one.
     */
    async save(unit, batch, changes) {
      assertOpenOn(unit, sqlite)
      saveOwn(batch, changes)
      const adds = addsOf(changes)
      const sink = sinks.get(unit)
      if (sink) sink({ gameId: batch.gameId, adds })
      else saveAdds(batch.gameId, adds)
    },
    async claimClicks(unit, { organizationId, gameId, at, claims }) {
      assertOpenOn(unit, sqlite)
      const claimed = new Set<string>()
      for (const c of claims)
        if (writes.claimClick.run(organizationId, c.clickId, gameId, c.playerId, at).changes === 1)
          claimed.add(c.clickId)
      return claimed
    },
    /** The next group's transaction on the raw connection, in a savepoint (daemon/db/group-commit.ts). */
    unitOfWork(_gameId, work, _scope, weight = { events: 1, bytes: 0 }) {
      return committer.run((_, defer) => {
        const unit = syncUnit(sqlite)
        sinks.set(unit, defer)
        return work(unit)
      }, weight)
    },
  }
}
