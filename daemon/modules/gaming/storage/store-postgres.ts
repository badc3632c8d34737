/**
 * The PostgreSQL store of the gaming layers (same port as store.ts): one transaction per batch
 * under the locks of locks-store-postgres.ts, the snapshot read with `= ANY($2)`, one multi-row
 * statement per table in key order with the shared aggregate rows last (their locks held
 * shortest); a batch that meets another runs again. See docs/decisions/per-player-locks.md.
 */
import type { Kysely } from 'kysely'
import type { Database } from '../../../db/schema.js'
import { addCountersOnConflict, addCountersSql } from '../../../db/counters.js'
import {
  byKey,
  insertRows,
  numbered,
  query,
  updateRows,
  type Column,
  type PgType,
  type RowsStatement,
} from '../../../db/postgres-rows.js'
import { kyselyOf, postgresUnit } from '../../../db/unit-of-work.js'
import { isTransientConflict, isUniqueViolation, retryingConflicts } from '../../../db/errors.js'
import { lockBatch } from './locks-store-postgres.js'
import {
  ACQUISITION_COUNTERS,
  DAILY_COUNTERS,
  DIM_COUNTERS,
  MONEY_CEILINGS,
  type GamedataStore,
} from './store.js'
import { NO_DAY, pairKey } from './types.js'
import type {
  AcceptedEvent,
  Changes,
  Neighbours,
  PlayerDayRow,
  ProfileRow,
  SessionRow,
  Snapshot,
} from './types.js'

type Event = AcceptedEvent['event']
type EventRow = AcceptedEvent & { receivedAt: number; batchId: string; ip: string | null }

const EVENT_COLUMNS: Column<EventRow>[] = [
  ['event_id', 'text', (r) => r.event.eventId],
  ['event_type', 'text', (r) => r.event.type],
  ['player_id', 'text', (r) => r.event.playerId],
  ['session_id', 'text', (r) => r.event.sessionId],
  ['platform', 'text', (r) => r.event.platform],
  ['ts', 'int8', (r) => r.event.ts],
  ['received_at', 'int8', (r) => r.receivedAt],
  ['batch_id', 'text', (r) => r.batchId],
  ['revenue_type', 'text', (r) => r.event.revenueType],
  ['revenue_micros', 'int8', (r) => r.event.revenueMicros],
  ['currency', 'text', (r) => r.event.currency],
  ['country', 'text', (r) => r.event.country],
  ['ip', 'text', (r) => r.ip],
  ['device_fingerprint', 'text', (r) => r.event.deviceFingerprint],
  ['verdict', 'text', (r) => r.verdict],
  ['data', 'text', (r) => r.event.dataJson],
]

/** A column of a row type whose values are the columns themselves (snake_case rows). */
const own = <T>(name: keyof T & string, type: PgType): Column<T> => [name, type, (r: T) => r[name]]
const ownAll = <T>(columns: ReadonlyArray<readonly [keyof T & string, PgType]>) =>
  columns.map(([name, type]) => own<T>(name, type))

const PLAYER_KEY = ownAll<ProfileRow>([['player_id', 'text']])
const PLAYER_ACTIVITY = ownAll<ProfileRow>([
  ['last_active_at', 'int8'],
  ['last_active_day', 'int8'],
  ['session_count', 'int8'],
  ['event_count', 'int8'],
  ['current_session_id', 'text'],
])
/** The columns an `all` write sets (first-touch fields, revenue, activity): all but the platform. */
const PLAYER_ALL = [
  ...ownAll<ProfileRow>([
    ['first_seen_at', 'int8'],
    ['install_day', 'int8'],
    ['country', 'text'],
    ['device_fingerprint', 'text'],
    ['affiliate', 'text'],
    ['campaign', 'text'],
    ['source', 'text'],
    ['medium', 'text'],
    ['transactions', 'int8'],
    ['revenue_iap_micros', 'int8'],
    ['revenue_ad_micros', 'int8'],
    ['revenue_subscription_micros', 'int8'],
    ['revenue_total_micros', 'int8'],
    ['first_purchase_at', 'int8'],
  ]),
  ...PLAYER_ACTIVITY,
]
const PLAYER_DAY_KEY = ownAll<PlayerDayRow>([
  ['player_id', 'text'],
  ['day', 'int8'],
])
const PLAYER_DAY_COUNTS = ownAll<PlayerDayRow>([
  ['events', 'int8'],
  ['revenue_micros', 'int8'],
  ['event_types', 'int8'],
])
const SESSION_KEY = ownAll<SessionRow>([['id', 'text']])
const SESSION_PROGRESS = ownAll<SessionRow>([
  ['last_event_at', 'int8'],
  ['ended_at', 'int8'],
  ['events', 'int8'],
])

/**
 * `write` with its rows sorted by `keys` first: every batch takes the row locks of a table in one
 * order, so two batches writing the same rows wait for each other instead of deadlocking.
 */
function inKeyOrder<T>(write: RowsStatement<T>, keys: readonly Column<T>[]): RowsStatement<T> {
  const order = byKey(keys)
  return (db, gameId, rows) => write(db, gameId, [...rows].sort(order))
}

/** `updateRows` (the rows its `keys` name), in key order. */
const updateInKeyOrder = <T>(table: string, set: readonly Column<T>[], keys: readonly Column<T>[]) =>
  inKeyOrder(updateRows(table, set, keys), keys)

/**
 * An aggregate table's multi-row upsert: `keys` (after game_id) name the row, counters add up (money
 * saturates: MONEY_CEILINGS); rows in key order (the rows every batch of the game shares: their
 * locks in one order).
 */
function addCounters<T>(
  table: string,
  keys: readonly Column<T>[],
  counters: readonly Column<T>[],
): RowsStatement<T> {
  const conflict = addCountersOnConflict(
    table,
    ['game_id', ...keys.map(([name]) => name)],
    counters.map(([name]) => name),
    MONEY_CEILINGS,
  )
  return inKeyOrder(insertRows(table, [...keys, ...counters], conflict), keys)
}
const counters = <T>(...names: Array<keyof T & string>) => names.map((n) => own<T>(n, 'int8'))

type Daily = Changes['daily'][number]
type Dim = Changes['dims'][number]
type Gap = Changes['gaps'][number]
type Cohort = Changes['cohorts'][number]
type Acquisition = Changes['acquisition'][number]
type DimGap = Changes['dimPayingGaps'][number]
type InstallDayMove = Changes['installDayMoves'][number]

const MOVE_KEY: Column<InstallDayMove>[] = [['player_id', 'text', (m) => m.playerId]]

const statements = {
  // No ON CONFLICT: an event id a concurrent batch (of other players) stored since the snapshot
  // raises a unique violation, and the batch runs again (it then counts the event a duplicate).
  insertEvents: inKeyOrder(insertRows('game_events', EVENT_COLUMNS), EVENT_COLUMNS.slice(0, 1)),
  moveInstallDays: updateInKeyOrder<InstallDayMove>(
    'game_player_days',
    [['install_day', 'int8', (m) => m.installDay]],
    MOVE_KEY,
  ),
  insertPlayers: inKeyOrder(
    insertRows('game_players', [...PLAYER_KEY, own<ProfileRow>('platform', 'text'), ...PLAYER_ALL]),
    PLAYER_KEY,
  ),
  updatePlayersAll: updateInKeyOrder('game_players', PLAYER_ALL, PLAYER_KEY),
  updatePlayersActivity: updateInKeyOrder('game_players', PLAYER_ACTIVITY, PLAYER_KEY),
  insertPlayerDays: inKeyOrder(
    insertRows('game_player_days', [
      ...PLAYER_DAY_KEY,
      own<PlayerDayRow>('install_day', 'int8'),
      ...PLAYER_DAY_COUNTS,
    ]),
    PLAYER_DAY_KEY,
  ),
  updatePlayerDays: updateInKeyOrder('game_player_days', PLAYER_DAY_COUNTS, PLAYER_DAY_KEY),
  insertSessions: inKeyOrder(
    insertRows('game_sessions', [
      ...SESSION_KEY,
      own<SessionRow>('player_id', 'text'),
      own<SessionRow>('session_id', 'text'),
      own<SessionRow>('started_at', 'int8'),
      ...SESSION_PROGRESS,
    ]),
    SESSION_KEY,
  ),
  updateSessionsStart: updateInKeyOrder(
    'game_sessions',
    [own<SessionRow>('started_at', 'int8'), ...SESSION_PROGRESS],
    SESSION_KEY,
  ),
  updateSessions: updateInKeyOrder('game_sessions', SESSION_PROGRESS, SESSION_KEY),
  daily: addCounters<Daily>('game_daily', [own('day', 'int8')], counters<Daily>(...DAILY_COUNTERS)),
  dims: addCounters<Dim>(
    'game_daily_dims',
    ownAll<Dim>([
      ['day', 'int8'],
      ['dim', 'text'],
      ['value', 'text'],
    ]),
    counters<Dim>(...DIM_COUNTERS),
  ),
  gaps: addCounters<Gap>(
    'game_day_gaps',
    [own('kind', 'text'), own('day', 'int8'), ['prev_day', 'int8', (x) => x.prevDay]],
    counters<Gap>('players'),
  ),
  cohorts: addCounters<Cohort>(
    'game_cohorts',
    [
      ['install_day', 'int8', (x) => x.installDay],
      ['day_offset', 'int8', (x) => x.dayOffset],
    ],
    counters<Cohort>('players'),
  ),
  acquisition: addCounters<Acquisition>(
    'game_acquisition_daily',
    ownAll<Acquisition>([
      ['day', 'int8'],
      ['dim', 'text'],
      ['value', 'text'],
    ]),
    counters<Acquisition>(...ACQUISITION_COUNTERS),
  ),
  dimPayingGaps: addCounters<DimGap>(
    'game_dim_paying_gaps',
    [own('dim', 'text'), own('value', 'text'), own('day', 'int8'), ['prev_day', 'int8', (x) => x.prevDay]],
    counters<DimGap>('players'),
  ),
  playerTotal: numbered(addCountersSql('game_player_totals', ['game_id'], ['players'])),
}

const SQL = {
  storedEventIds: 'SELECT event_id FROM game_events WHERE game_id = $1 AND event_id = ANY($2::text[])',
  players: 'SELECT * FROM game_players WHERE game_id = $1 AND player_id = ANY($2::text[])',
  playerDays: `SELECT player_id, day, install_day, events, revenue_micros, event_types FROM game_player_days
    WHERE game_id = $1 AND player_id = ANY($2::text[]) ORDER BY player_id, day`,
  sessionsById: 'SELECT * FROM game_sessions WHERE game_id = $1 AND id = ANY($2::text[])',
  // The latest start of each (player, session_id): the index game_sessions_player.
  sessionsBySid: `SELECT DISTINCT ON (player_id, session_id) * FROM game_sessions
    WHERE game_id = $1 AND (player_id, session_id) IN (SELECT * FROM unnest($2::text[], $3::text[]))
    ORDER BY player_id, session_id, started_at DESC, id DESC`,
}

/**
 * What makes a batch's transaction run again: a deadlock or serialization failure, or a unique
 * violation on game_events (an event id another batch stored while this one was folding).
 */
function concurrentBatch(err: unknown): boolean {
  const table = (err as { table?: unknown } | null)?.table
  return isTransientConflict(err) || (isUniqueViolation(err) && table === 'game_events')
}

/** The previous and next day of `days` (ascending) around `day`. */
function neighboursIn(days: readonly PlayerDayRow[], day: number, paying: boolean): Neighbours {
  let prev = NO_DAY
  let next: number | null = null
  for (const row of days) {
    if (paying && !(row.revenue_micros > 0)) continue
    if (row.day < day) prev = row.day
    else if (row.day > day) {
      next = row.day
      break
    }
  }
  return { prev, next }
}

export function createPostgresGamedataStore(db: Kysely<Database>): GamedataStore {
  return {
    unitOfWork(gameId, work, scope) {
      return retryingConflicts(
        () =>
          db.transaction().execute(async (trx) => {
            await lockBatch(trx, gameId, scope)
            return work(postgresUnit(trx))
          }),
        { retryable: concurrentBatch, what: 'the batch' },
      )
    },

    /** The same snapshot as the SQLite store's, read for the whole batch at once. */
    async loadSnapshot(unit, gameId, events): Promise<Snapshot> {
      const trx = kyselyOf(unit)
      const eventIds = [...new Set(events.map((j) => j.event.eventId))]
      const playerIds = [...new Set(events.map((j) => j.event.playerId))]
      const stored = await query<{ event_id: string }>(trx, SQL.storedEventIds, [gameId, eventIds])
      const rows = await query<ProfileRow>(trx, SQL.players, [gameId, playerIds])
      const profiles = new Map(rows.map((p) => [p.player_id, p]))
      const known = [...profiles.keys()]
      const daysOf = new Map<string, PlayerDayRow[]>(known.map((p) => [p, []]))
      const dayRows = new Map<string, PlayerDayRow>()
      const sessionsById = new Map<string, SessionRow>()
      const sessionsBySid = new Map<string, SessionRow>()
      const knownEvents: Event[] = events.map((j) => j.event).filter((e) => profiles.has(e.playerId))
      if (known.length) {
        for (const d of await query<PlayerDayRow>(trx, SQL.playerDays, [gameId, known])) {
          daysOf.get(d.player_id)!.push(d)
          dayRows.set(pairKey(d.player_id, d.day), d)
        }
        const current = rows.map((p) => p.current_session_id).filter((id): id is string => id !== null)
        if (current.length)
          for (const s of await query<SessionRow>(trx, SQL.sessionsById, [gameId, current]))
            sessionsById.set(s.id, s)
        const pairs = new Map<string, [string, string]>()
        for (const e of knownEvents)
          if (e.sessionId) pairs.set(pairKey(e.playerId, e.sessionId), [e.playerId, e.sessionId])
        if (pairs.size) {
          const list = [...pairs.values()]
          const params = [gameId, list.map(([p]) => p), list.map(([, sid]) => sid)]
          for (const s of await query<SessionRow>(trx, SQL.sessionsBySid, params))
            sessionsBySid.set(pairKey(s.player_id, s.session_id!), s)
        }
      }
      const playerDays = new Map<string, PlayerDayRow>()
      const activeNeighbours = new Map<string, Neighbours>()
      const payingNeighbours = new Map<string, Neighbours>()
      const allDays = new Map<string, number[]>()
      for (const e of knownEvents) {
        const days = daysOf.get(e.playerId)!
        const dk = pairKey(e.playerId, e.day)
        const row = dayRows.get(dk)
        if (row) playerDays.set(dk, row)
        else if (!activeNeighbours.has(dk)) activeNeighbours.set(dk, neighboursIn(days, e.day, false))
        if (e.revenueMicros > 0 && !payingNeighbours.has(dk))
          payingNeighbours.set(dk, neighboursIn(days, e.day, true))
        if (e.day < profiles.get(e.playerId)!.install_day && !allDays.has(e.playerId))
          allDays.set(
            e.playerId,
            days.map((d) => d.day),
          )
      }
      const typeDays = new Map(
        [...daysOf].map(([p, days]) => [p, days.map((d) => ({ day: d.day, event_types: d.event_types }))]),
      )
      return {
        storedEventIds: new Set(stored.map((r) => r.event_id)),
        profiles,
        playerDays,
        activeNeighbours,
        payingNeighbours,
        allDays,
        sessionsBySid,
        sessionsById,
        typeDays,
      }
    },

    /**
     * Writes the fold's changes in the SQLite store's order, one statement per table and kind
     * (each statement's rows in key order); the counters every batch of the game shares last.
     */
    async save(unit, batch, c) {
      const trx = kyselyOf(unit)
      const gameId = batch.gameId
      const { receivedAt, batchId, ip } = batch
      const events = c.newEvents.map((j) => ({ ...j, receivedAt, batchId, ip }))
      await statements.insertEvents(trx, gameId, events)
      await statements.moveInstallDays(trx, gameId, c.installDayMoves)
      const profiles = (write: Changes['profiles'][number]['write']) =>
        c.profiles.filter((p) => p.write === write).map((p) => p.row)
      await statements.insertPlayers(trx, gameId, profiles('insert'))
      await statements.updatePlayersAll(trx, gameId, profiles('all'))
      await statements.updatePlayersActivity(trx, gameId, profiles('activity'))
      const days = (isNew: boolean) => c.playerDays.filter((d) => d.isNew === isNew).map((d) => d.row)
      await statements.insertPlayerDays(trx, gameId, days(true))
      await statements.updatePlayerDays(trx, gameId, days(false))
      const sessions = (write: Changes['sessions'][number]['write']) =>
        c.sessions.filter((s) => s.write === write).map((s) => s.row)
      await statements.insertSessions(trx, gameId, sessions('insert'))
      await statements.updateSessionsStart(trx, gameId, sessions('start'))
      await statements.updateSessions(trx, gameId, sessions('update'))
      await statements.daily(trx, gameId, c.daily)
      await statements.dims(trx, gameId, c.dims)
      await statements.gaps(trx, gameId, c.gaps)
      await statements.cohorts(trx, gameId, c.cohorts)
      await statements.acquisition(trx, gameId, c.acquisition)
      await statements.dimPayingGaps(trx, gameId, c.dimPayingGaps)
      const newPlayers = c.profiles.filter((p) => p.write === 'insert').length
      if (newPlayers) await query(trx, statements.playerTotal, [gameId, newPlayers])
    },
  }
}
