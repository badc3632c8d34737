/**
 * The SQLite store of the gaming storage layers (raw events, sessions, profiles, aggregates): it
 * loads the snapshot a batch's fold reads and saves the fold's changes, inside one transaction
 * committed under synchronous=FULL (daemon/db/raw-writes.ts). No rule lives here: the rules are
 * in fold.ts. Prepared better-sqlite3 statements (~8x the query builder's insert rate) are the
 * SQLite hot path and stay inside this file; every statement is portable SQL (ON CONFLICT … DO
 * UPDATE, CASE instead of MIN/MAX scalars) except json_each. The PostgreSQL store behind the
 * same port (`GamedataStore`) is store-postgres.ts.
 */
import type SQLite from 'better-sqlite3'
import type { Kysely } from 'kysely'
import type { Database } from '../../../db/schema.js'
import { addCountersSql, type Ceilings } from '../../../db/counters.js'
import { rawTransaction } from '../../../db/raw-writes.js'
import { assertOpenOn, syncUnit, type UnitOfWork } from '../../../db/unit-of-work.js'
import { MONEY_SUM_MAX_MICROS, NO_DAY, pairKey } from './types.js'
import type {
  AcceptedBatch,
  AcceptedEvent,
  BatchLocks,
  Changes,
  Neighbours,
  PlayerDayRow,
  ProfileRow,
  SessionRow,
  Snapshot,
} from './types.js'

type MaxMin = { d: number | null }

/** The counters of the aggregate tables, added to the stored row by both engines' stores. */
export const DAILY_COUNTERS = [
  'active_players',
  'new_players',
  'paying_players',
  'sessions',
  'session_seconds',
  'events',
  'flagged_events',
  'transactions',
  'revenue_iap_micros',
  'revenue_ad_micros',
  'revenue_subscription_micros',
] as const
export const DIM_COUNTERS = [
  'players',
  'new_players',
  'paying_players',
  'events',
  'transactions',
  'revenue_iap_micros',
  'revenue_ad_micros',
  'revenue_subscription_micros',
  'sessions',
] as const
export const ACQUISITION_COUNTERS = ['cost_micros', 'commission_micros', 'conversions'] as const
/** The money counters of the aggregate tables saturate at MONEY_SUM_MAX_MICROS (types.ts). */
export const MONEY_CEILINGS: Ceilings = Object.fromEntries(
  [
    'revenue_iap_micros',
    'revenue_ad_micros',
    'revenue_subscription_micros',
    'cost_micros',
    'commission_micros',
  ].map((c) => [c, MONEY_SUM_MAX_MICROS]),
)

/** The port of the batch write path: one implementation per engine. */
export interface GamedataStore {
  /**
   * Runs `work` (the loads, the fold, the saves, and other stores' statements given the unit) as
   * ONE transaction, the only one writing the rows of `scope`'s players (and handling its
   * batch_id) meanwhile, or without `scope` the only one writing the game's rows; once this
   * resolves, the work is committed durably (SQLite: synchronous=FULL; PostgreSQL:
   * synchronous_commit). SQLite has one writer: every unit runs alone. PostgreSQL may run `work`
   * again in a new transaction when a concurrent one got in its way (nothing of the first run
   * stays), and throws a WriteConflictError (daemon/db/errors.ts) when that keeps happening.
   */
  unitOfWork<T>(gameId: string, work: (unit: UnitOfWork) => Promise<T>, scope?: BatchLocks): Promise<T>
  /** The rows the batch's events can touch, as the tables hold them before the batch. */
  loadSnapshot(unit: UnitOfWork, gameId: string, events: readonly AcceptedEvent[]): Promise<Snapshot>
  /** Writes the fold's changes. */
  save(unit: UnitOfWork, batch: AcceptedBatch, changes: Changes): Promise<void>
}

export function createGamedataStore(sqlite: SQLite.Database, db: Kysely<Database>): GamedataStore {
  // SQLite-only: prepared statements (the hot path); nothing outside this file sees them.
  const statements = {
    storedEventIds: sqlite
      .prepare(
        'SELECT event_id FROM game_events WHERE game_id = ? AND event_id IN (SELECT value FROM json_each(?))',
      )
      .pluck(),
    insertEvent: sqlite.prepare(
      `INSERT INTO game_events (game_id, event_id, event_type, player_id, session_id, platform, ts, received_at,
         batch_id, revenue_type, revenue_micros, currency, country, ip, device_fingerprint, verdict, data)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (game_id, event_id) DO NOTHING`,
    ),
    player: sqlite.prepare('SELECT * FROM game_players WHERE game_id = ? AND player_id = ?'),
    // New rows are plain INSERTs; existing ones get UPDATEs of the columns that changed, so that
    // indexes on unchanged columns are not rewritten (SQLite updates the indexes of SET columns).
    insertPlayer: sqlite.prepare(
      `INSERT INTO game_players (game_id, player_id, first_seen_at, install_day, last_active_at, last_active_day,
         platform, country, device_fingerprint, affiliate, campaign, source, medium, session_count, event_count,
         transactions, revenue_iap_micros, revenue_ad_micros, revenue_subscription_micros, revenue_total_micros,
         first_purchase_at, current_session_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    updatePlayerActivity: sqlite.prepare(
      `UPDATE game_players SET last_active_at = ?, last_active_day = ?, session_count = ?, event_count = ?,
         current_session_id = ? WHERE game_id = ? AND player_id = ?`,
    ),
    updatePlayerAll: sqlite.prepare(
      `UPDATE game_players SET first_seen_at = ?, install_day = ?, last_active_at = ?, last_active_day = ?,
         country = ?, device_fingerprint = ?, affiliate = ?, campaign = ?, source = ?, medium = ?,
         session_count = ?, event_count = ?, transactions = ?, revenue_iap_micros = ?, revenue_ad_micros = ?,
         revenue_subscription_micros = ?, revenue_total_micros = ?, first_purchase_at = ?, current_session_id = ?
       WHERE game_id = ? AND player_id = ?`,
    ),
    playerDay: sqlite.prepare(
      'SELECT player_id, day, install_day, events, revenue_micros, event_types FROM game_player_days WHERE game_id = ? AND player_id = ? AND day = ?',
    ),
    playerDays: sqlite.prepare('SELECT day FROM game_player_days WHERE game_id = ? AND player_id = ?'),
    typeDays: sqlite.prepare(
      'SELECT day, event_types FROM game_player_days WHERE game_id = ? AND player_id = ? ORDER BY day',
    ),
    prevDay: sqlite.prepare(
      'SELECT MAX(day) AS d FROM game_player_days WHERE game_id = ? AND player_id = ? AND day < ?',
    ),
    nextDay: sqlite.prepare(
      'SELECT MIN(day) AS d FROM game_player_days WHERE game_id = ? AND player_id = ? AND day > ?',
    ),
    prevPayDay: sqlite.prepare(
      'SELECT MAX(day) AS d FROM game_player_days WHERE game_id = ? AND player_id = ? AND day < ? AND revenue_micros > 0',
    ),
    nextPayDay: sqlite.prepare(
      'SELECT MIN(day) AS d FROM game_player_days WHERE game_id = ? AND player_id = ? AND day > ? AND revenue_micros > 0',
    ),
    moveInstallDay: sqlite.prepare(
      'UPDATE game_player_days SET install_day = ? WHERE game_id = ? AND player_id = ?',
    ),
    insertPlayerDay: sqlite.prepare(
      `INSERT INTO game_player_days (game_id, player_id, day, install_day, events, revenue_micros, event_types)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ),
    updatePlayerDay: sqlite.prepare(
      `UPDATE game_player_days SET events = ?, revenue_micros = ?, event_types = ?
       WHERE game_id = ? AND player_id = ? AND day = ?`,
    ),
    sessionBySid: sqlite.prepare(
      'SELECT * FROM game_sessions WHERE game_id = ? AND player_id = ? AND session_id = ? ORDER BY started_at DESC LIMIT 1',
    ),
    sessionById: sqlite.prepare('SELECT * FROM game_sessions WHERE game_id = ? AND id = ?'),
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
  }

  const between = (
    gameId: string,
    player: string,
    day: number,
    prev: SQLite.Statement,
    next: SQLite.Statement,
  ): Neighbours => ({
    prev: (prev.get(gameId, player, day) as MaxMin).d ?? NO_DAY,
    next: (next.get(gameId, player, day) as MaxMin).d,
  })

  /** The rows the batch's events can touch, as the tables hold them before the batch. */
  function loadSnapshotNow(gameId: string, events: readonly AcceptedEvent[]): Snapshot {
    const storedEventIds = new Set(
      statements.storedEventIds.all(gameId, JSON.stringify(events.map((j) => j.event.eventId))) as string[],
    )
    const profiles = new Map<string, ProfileRow>()
    const playerDays = new Map<string, PlayerDayRow>()
    const activeNeighbours = new Map<string, Neighbours>()
    const payingNeighbours = new Map<string, Neighbours>()
    const allDays = new Map<string, number[]>()
    const sessionsBySid = new Map<string, SessionRow>()
    const sessionsById = new Map<string, SessionRow>()
    const typeDays = new Map<string, PlayerDayRow[]>()
    const missing = new Set<string>()
    const daysDone = new Set<string>()
    const paidDone = new Set<string>()
    for (const { event } of events) {
      const playerId = event.playerId
      let profile = profiles.get(playerId)
      if (!profile) {
        if (missing.has(playerId)) continue
        profile = statements.player.get(gameId, playerId) as ProfileRow | undefined
        if (!profile) {
          missing.add(playerId)
          continue
        }
        profiles.set(playerId, profile)
        typeDays.set(playerId, statements.typeDays.all(gameId, playerId) as PlayerDayRow[])
        if (profile.current_session_id) {
          const current = statements.sessionById.get(gameId, profile.current_session_id) as
            SessionRow | undefined
          if (current) sessionsById.set(current.id, current)
        }
      }
      const dk = pairKey(playerId, event.day)
      if (!daysDone.has(dk)) {
        daysDone.add(dk)
        const row = statements.playerDay.get(gameId, playerId, event.day) as PlayerDayRow | undefined
        if (row) playerDays.set(dk, row)
        else
          activeNeighbours.set(
            dk,
            between(gameId, playerId, event.day, statements.prevDay, statements.nextDay),
          )
      }
      if (event.revenueMicros > 0 && !paidDone.has(dk)) {
        paidDone.add(dk)
        payingNeighbours.set(
          dk,
          between(gameId, playerId, event.day, statements.prevPayDay, statements.nextPayDay),
        )
      }
      if (event.day < profile.install_day && !allDays.has(playerId))
        allDays.set(
          playerId,
          (statements.playerDays.all(gameId, playerId) as { day: number }[]).map((r) => r.day),
        )
      if (event.sessionId) {
        const sk = pairKey(playerId, event.sessionId)
        if (!sessionsBySid.has(sk)) {
          const row = statements.sessionBySid.get(gameId, playerId, event.sessionId) as SessionRow | undefined
          if (row) sessionsBySid.set(sk, row)
        }
      }
    }
    return {
      storedEventIds,
      profiles,
      playerDays,
      activeNeighbours,
      payingNeighbours,
      allDays,
      sessionsBySid,
      sessionsById,
      typeDays,
    }
  }

  /** Writes the fold's changes: new rows as INSERTs, existing ones as narrow UPDATEs, increments. */
  function saveNow(batch: AcceptedBatch, c: Changes): void {
    const gameId = batch.gameId
    for (const { event: e, verdict } of c.newEvents)
      // prettier-ignore
      statements.insertEvent.run(gameId, e.eventId, e.type, e.playerId, e.sessionId, e.platform, e.ts, batch.receivedAt,
        batch.batchId, e.revenueType, e.revenueMicros, e.currency, e.country, batch.ip, e.deviceFingerprint,
        verdict, e.dataJson)
    for (const { playerId, installDay } of c.installDayMoves)
      statements.moveInstallDay.run(installDay, gameId, playerId)
    for (const { row: p, write } of c.profiles) {
      // prettier-ignore
      if (write === 'insert')
        statements.insertPlayer.run(gameId, p.player_id, p.first_seen_at, p.install_day, p.last_active_at, p.last_active_day,
          p.platform, p.country, p.device_fingerprint, p.affiliate, p.campaign, p.source, p.medium, p.session_count,
          p.event_count, p.transactions, p.revenue_iap_micros, p.revenue_ad_micros, p.revenue_subscription_micros,
          p.revenue_total_micros, p.first_purchase_at, p.current_session_id)
      else if (write === 'all')
        statements.updatePlayerAll.run(p.first_seen_at, p.install_day, p.last_active_at, p.last_active_day, p.country,
          p.device_fingerprint, p.affiliate, p.campaign, p.source, p.medium, p.session_count, p.event_count,
          p.transactions, p.revenue_iap_micros, p.revenue_ad_micros, p.revenue_subscription_micros,
          p.revenue_total_micros, p.first_purchase_at, p.current_session_id, gameId, p.player_id)
      else
        statements.updatePlayerActivity.run(p.last_active_at, p.last_active_day, p.session_count, p.event_count,
          p.current_session_id, gameId, p.player_id)
    }
    for (const { row: d, isNew } of c.playerDays)
      if (isNew)
        statements.insertPlayerDay.run(
          gameId,
          d.player_id,
          d.day,
          d.install_day,
          d.events,
          d.revenue_micros,
          d.event_types,
        )
      else
        statements.updatePlayerDay.run(d.events, d.revenue_micros, d.event_types, gameId, d.player_id, d.day)
    for (const { row: s, write } of c.sessions) {
      // prettier-ignore
      if (write === 'insert')
        statements.insertSession.run(gameId, s.id, s.player_id, s.session_id, s.started_at, s.last_event_at, s.ended_at, s.events)
      else if (write === 'start')
        statements.updateSessionStart.run(s.started_at, s.last_event_at, s.ended_at, s.events, gameId, s.id)
      else statements.updateSession.run(s.last_event_at, s.ended_at, s.events, gameId, s.id)
    }
    for (const d of c.daily)
      // prettier-ignore
      statements.daily.run(gameId, d.day, d.active_players, d.new_players, d.paying_players, d.sessions, d.session_seconds,
        d.events, d.flagged_events, d.transactions, d.revenue_iap_micros, d.revenue_ad_micros,
        d.revenue_subscription_micros)
    for (const d of c.dims)
      // prettier-ignore
      statements.dim.run(gameId, d.day, d.dim, d.value, d.players, d.new_players, d.paying_players, d.events, d.transactions,
        d.revenue_iap_micros, d.revenue_ad_micros, d.revenue_subscription_micros, d.sessions)
    for (const x of c.gaps) statements.gap.run(gameId, x.kind, x.day, x.prevDay, x.players)
    for (const x of c.cohorts) statements.cohort.run(gameId, x.installDay, x.dayOffset, x.players)
    // Acquisition: cost, commission, conversions; paying players per platform / source.
    for (const x of c.acquisition)
      statements.acquisition.run(
        gameId,
        x.day,
        x.dim,
        x.value,
        x.cost_micros,
        x.commission_micros,
        x.conversions,
      )
    for (const x of c.dimPayingGaps)
      statements.dimPayingGap.run(gameId, x.dim, x.value, x.day, x.prevDay, x.players)
    const newPlayers = c.profiles.filter((p) => p.write === 'insert').length
    if (newPlayers) statements.playerTotal.run(gameId, newPlayers)
  }

  return {
    async loadSnapshot(unit, gameId, events) {
      assertOpenOn(unit, sqlite)
      return loadSnapshotNow(gameId, events)
    },
    async save(unit, batch, changes) {
      assertOpenOn(unit, sqlite)
      saveNow(batch, changes)
    },
    /**
     * One writer at a time on SQLite: `BEGIN IMMEDIATE … COMMIT` on the raw connection, never
     * inside a transaction another task left open on it, under synchronous=FULL
     * (daemon/db/raw-writes.ts).
     */
    unitOfWork(_gameId, work) {
      return rawTransaction(db, sqlite, () => work(syncUnit(sqlite)))
    },
  }
}
