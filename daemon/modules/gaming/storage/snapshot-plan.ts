/**
 * The plan both batch stores follow (store.ts: SQLite, store-postgres.ts: PostgreSQL), pure: which
 * rows the fold's changes write, per table and kind of write, with their columns, in the order
 * written (snapshot-read.ts: what a batch reads). A store only runs it with its engine's statements
 * (how rows are read, batched, locked, ordered).
 */
import type { Ceilings } from '../../../db/counters.js'
import { MONEY_SUM_MAX_MICROS, addMoney } from './types.js'
import type { AcceptedBatch, AcceptedEvent, Changes, PlayerDayRow, ProfileRow, SessionRow } from './types.js'

// What a batch writes.

/** A column a write sets: its name, its kind of value, and how a row gives the value. */
export type Field<T> = readonly [name: string, kind: 'text' | 'integer', value: (row: T) => unknown]

/**
 * One statement of a batch's save. insert: `keys` then `columns` of new rows; update: `columns` of
 * the row of the game that `keys` name; add: `counters` added to the row `keys` name (inserted if
 * none), money saturating at MONEY_CEILINGS. Keys also give the order a store may write rows in.
 */
export interface WriteStep<T> {
  table: string
  write: 'insert' | 'update' | 'add'
  keys: readonly Field<T>[]
  columns: readonly Field<T>[]
}

/** A column of a snake_case row: its value is the row's property of the same name. */
const own = <T>(name: keyof T & string, kind: Field<T>[1] = 'integer'): Field<T> => [
  name,
  kind,
  (r: T) => r[name],
]
const owns = <T>(kind: Field<T>[1], ...names: Array<keyof T & string>) => names.map((n) => own<T>(n, kind))
const step = <T>(
  table: string,
  write: WriteStep<T>['write'],
  keys: readonly Field<T>[],
  columns: readonly Field<T>[],
): WriteStep<T> => ({ table, write, keys, columns })

/** The counters of the aggregate tables, added to the stored row. */
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

/** A new event with what its batch adds to it. */
export type EventRow = AcceptedEvent & Pick<AcceptedBatch, 'receivedAt' | 'batchId' | 'ip'>
type Daily = Changes['daily'][number]
type Dim = Changes['dims'][number]
type Gap = Changes['gaps'][number]
type Cohort = Changes['cohorts'][number]
type CohortDim = Changes['cohortDims'][number]
type CohortEvent = Changes['cohortEvents'][number]
type Acquisition = Changes['acquisition'][number]
type DimGap = Changes['dimPayingGaps'][number]
type InstallDayMove = Changes['installDayMoves'][number]
type PlayerTotal = { players: number }

const PLAYER_KEY = [own<ProfileRow>('player_id', 'text')]
const PLAYER_ACTIVITY = [
  ...owns<ProfileRow>('integer', 'last_active_at', 'last_active_day', 'session_count', 'event_count'),
  own<ProfileRow>('current_session_id', 'text'),
]
/** The columns an `all` write sets (first-touch fields, revenue, activity): all but the platform. */
const PLAYER_ALL = [
  ...owns<ProfileRow>('integer', 'first_seen_at', 'install_day'),
  ...owns<ProfileRow>(
    'text',
    'country',
    'device_fingerprint',
    'affiliate',
    'campaign',
    'source',
    'medium',
    'link_id',
    'click_id',
  ),
  ...owns<ProfileRow>(
    'integer',
    'transactions',
    'revenue_iap_micros',
    'revenue_ad_micros',
    'revenue_subscription_micros',
    'revenue_total_micros',
    'first_purchase_at',
  ),
  ...PLAYER_ACTIVITY,
]
const PLAYER_DAY_KEY = [own<PlayerDayRow>('player_id', 'text'), own<PlayerDayRow>('day')]
const PLAYER_DAY_COUNTS = [
  ...owns<PlayerDayRow>('integer', 'events', 'revenue_micros', 'event_types'),
  own<PlayerDayRow>('custom_events', 'text'),
]
const SESSION_KEY = [own<SessionRow>('id', 'text')]
const SESSION_PROGRESS = owns<SessionRow>('integer', 'last_event_at', 'ended_at', 'events')

const text = <T>(name: string, value: (row: T) => unknown): Field<T> => [name, 'text', value]
const int = <T>(name: string, value: (row: T) => unknown): Field<T> => [name, 'integer', value]

/**
 * The statements of a batch's save, in the order they run: the raw layer, the rows of the batch's
 * players, then the aggregate rows every batch of the game shares (their locks held shortest).
 */
export const WRITE_STEPS = {
  insertEvents: step<EventRow>(
    'game_events',
    'insert',
    [text('event_id', (r) => r.event.eventId)],
    [
      text('event_type', (r) => r.event.type),
      text('player_id', (r) => r.event.playerId),
      text('session_id', (r) => r.event.sessionId),
      text('platform', (r) => r.event.platform),
      int('ts', (r) => r.event.ts),
      int('received_at', (r) => r.receivedAt),
      text('batch_id', (r) => r.batchId),
      text('revenue_type', (r) => r.event.revenueType),
      int('revenue_micros', (r) => r.event.revenueMicros),
      text('currency', (r) => r.event.currency),
      text('country', (r) => r.event.country),
      text('ip', (r) => r.ip),
      text('device_fingerprint', (r) => r.event.deviceFingerprint),
      text('verdict', (r) => r.verdict),
      text('data', (r) => r.event.dataJson),
    ],
  ),
  moveInstallDays: step<InstallDayMove>(
    'game_player_days',
    'update',
    [text('player_id', (m) => m.playerId)],
    [int('install_day', (m) => m.installDay)],
  ),
  insertPlayers: step<ProfileRow>('game_players', 'insert', PLAYER_KEY, [
    own('platform', 'text'),
    ...PLAYER_ALL,
  ]),
  updatePlayersAll: step<ProfileRow>('game_players', 'update', PLAYER_KEY, PLAYER_ALL),
  updatePlayersActivity: step<ProfileRow>('game_players', 'update', PLAYER_KEY, PLAYER_ACTIVITY),
  insertPlayerDays: step<PlayerDayRow>('game_player_days', 'insert', PLAYER_DAY_KEY, [
    own('install_day'),
    ...PLAYER_DAY_COUNTS,
  ]),
  updatePlayerDays: step<PlayerDayRow>('game_player_days', 'update', PLAYER_DAY_KEY, PLAYER_DAY_COUNTS),
  insertSessions: step<SessionRow>('game_sessions', 'insert', SESSION_KEY, [
    own('player_id', 'text'),
    own('session_id', 'text'),
    own('started_at'),
    ...SESSION_PROGRESS,
  ]),
  updateSessionsStart: step<SessionRow>('game_sessions', 'update', SESSION_KEY, [
    own('started_at'),
    ...SESSION_PROGRESS,
  ]),
  updateSessions: step<SessionRow>('game_sessions', 'update', SESSION_KEY, SESSION_PROGRESS),
  daily: step<Daily>('game_daily', 'add', [own('day')], owns('integer', ...DAILY_COUNTERS)),
  dims: step<Dim>(
    'game_daily_dims',
    'add',
    [own('day'), own('dim', 'text'), own('value', 'text')],
    owns('integer', ...DIM_COUNTERS),
  ),
  gaps: step<Gap>(
    'game_day_gaps',
    'add',
    [own('kind', 'text'), own('day'), int('prev_day', (x) => x.prevDay)],
    [own('players')],
  ),
  cohorts: step<Cohort>(
    'game_cohorts',
    'add',
    [int('install_day', (x) => x.installDay), int('day_offset', (x) => x.dayOffset)],
    [own('players')],
  ),
  cohortDims: step<CohortDim>(
    'game_cohort_dims',
    'add',
    [
      own('dim', 'text'),
      int('install_day', (x) => x.installDay),
      int('day_offset', (x) => x.dayOffset),
      own('value', 'text'),
    ],
    [own('players')],
  ),
  cohortEvents: step<CohortEvent>(
    'game_cohort_events',
    'add',
    [
      text('event_type', (x) => x.eventType),
      own('dim', 'text'),
      int('install_day', (x) => x.installDay),
      int('day_offset', (x) => x.dayOffset),
      own('value', 'text'),
    ],
    [own('players')],
  ),
  acquisition: step<Acquisition>(
    'game_acquisition_daily',
    'add',
    [own('day'), own('dim', 'text'), own('value', 'text')],
    owns('integer', ...ACQUISITION_COUNTERS),
  ),
  dimPayingGaps: step<DimGap>(
    'game_dim_paying_gaps',
    'add',
    [own('dim', 'text'), own('value', 'text'), own('day'), int('prev_day', (x) => x.prevDay)],
    [own('players')],
  ),
  playerTotals: step<PlayerTotal>('game_player_totals', 'add', [], [own('players')]),
}

export type WriteSteps = typeof WRITE_STEPS
export type StepName = keyof WriteSteps
/** The row type of each step. */
export type StepRow<K extends StepName> = WriteSteps[K] extends WriteStep<infer T> ? T : never
/** The rows of each step of one batch's save. */
export type Writes = { [K in StepName]: Array<StepRow<K>> }
/** The steps in the order they run (WRITE_STEPS' own order). */
export const WRITE_ORDER = Object.keys(WRITE_STEPS) as StepName[]

/** The rows each step writes for `changes`, the fold's changes of `batch`. */
export function writesOf(batch: AcceptedBatch, changes: Changes): Writes {
  const { receivedAt, batchId, ip } = batch
  const profiles = { insert: [] as ProfileRow[], all: [] as ProfileRow[], activity: [] as ProfileRow[] }
  for (const p of changes.profiles) profiles[p.write].push(p.row)
  const sessions = { insert: [] as SessionRow[], start: [] as SessionRow[], update: [] as SessionRow[] }
  for (const s of changes.sessions) sessions[s.write].push(s.row)
  const newDays: PlayerDayRow[] = []
  const oldDays: PlayerDayRow[] = []
  for (const d of changes.playerDays) (d.isNew ? newDays : oldDays).push(d.row)
  return {
    insertEvents: changes.newEvents.map((j) => ({ ...j, receivedAt, batchId, ip })),
    moveInstallDays: changes.installDayMoves,
    insertPlayers: profiles.insert,
    updatePlayersAll: profiles.all,
    updatePlayersActivity: profiles.activity,
    insertPlayerDays: newDays,
    updatePlayerDays: oldDays,
    insertSessions: sessions.insert,
    updateSessionsStart: sessions.start,
    updateSessions: sessions.update,
    ...addsOf(changes),
  }
}

/** The steps that add counters to rows every batch of the game shares. */
export const ADD_STEPS = WRITE_ORDER.filter((name) => WRITE_STEPS[name].write === 'add') as AddStep[]
export type AddStep =
  | 'daily'
  | 'dims'
  | 'gaps'
  | 'cohorts'
  | 'cohortDims'
  | 'cohortEvents'
  | 'acquisition'
  | 'dimPayingGaps'
  | 'playerTotals'
/** What a batch, or a group of batches, adds to the shared counter rows. */
export type Adds = { [K in AddStep]: Array<StepRow<K>> }

/** What the fold's `changes` of a batch add to the shared counter rows (its writes' add steps). */
export function addsOf(changes: Changes): Adds {
  let players = 0
  for (const p of changes.profiles) if (p.write === 'insert') players++
  return {
    daily: changes.daily,
    dims: changes.dims,
    gaps: changes.gaps,
    cohorts: changes.cohorts,
    cohortDims: changes.cohortDims,
    cohortEvents: changes.cohortEvents,
    acquisition: changes.acquisition,
    dimPayingGaps: changes.dimPayingGaps,
    playerTotals: players ? [{ players }] : [],
  }
}

/**
 * The additions of several batches as one: a row per key, each counter the sum (money saturating
 * at its ceiling, as the stored sum does: every addition is positive, so the order changes
 * nothing), in the order the keys first came.
 */
export function mergeAdds(parts: readonly Adds[]): Adds {
  const merged = {} as Record<AddStep, unknown[]>
  for (const name of ADD_STEPS) {
    const step = WRITE_STEPS[name] as WriteStep<Record<string, unknown>>
    const last = step.keys.length - 1
    // A map per key column, nested; the last one's values are the merged rows.
    const byKey = new Map<unknown, unknown>()
    const rows: Array<Record<string, unknown>> = []
    for (const part of parts)
      for (const row of part[name] as Array<Record<string, unknown>>) {
        let level = byKey
        for (let k = 0; k < last; k++) {
          const value = step.keys[k]![2](row)
          let next = level.get(value) as Map<unknown, unknown> | undefined
          if (!next) level.set(value, (next = new Map()))
          level = next
        }
        const value = last >= 0 ? step.keys[last]![2](row) : undefined
        const into = level.get(value) as Record<string, unknown> | undefined
        if (!into) {
          const copy = { ...row }
          level.set(value, copy)
          rows.push(copy)
          continue
        }
        for (const [column] of step.columns) {
          const a = Number(into[column])
          const b = Number(row[column])
          into[column] = MONEY_CEILINGS[column] === undefined ? a + b : addMoney(a, b)
        }
      }
    merged[name] = rows
  }
  return merged as Adds
}

/** What one batch of a game adds (what a unit of a group defers). */
export interface GameAdds {
  gameId: string
  adds: Adds
}

/** The additions of a group's batches merged per game. */
export function mergeByGame(parts: readonly GameAdds[]): Map<string, Adds> {
  const byGame = new Map<string, Adds[]>()
  for (const p of parts) byGame.set(p.gameId, [...(byGame.get(p.gameId) ?? []), p.adds])
  return new Map([...byGame].map(([gameId, adds]) => [gameId, mergeAdds(adds)]))
}

/** A store's statement of one step: writes the step's rows of a game (nothing for none) on `db`. */
export type StepStatement<T, D, R> = (db: D, gameId: string, rows: readonly T[]) => R

/** One statement per step, compiled once by a store from the steps. */
export type Statements<D, R> = { [K in StepName]: StepStatement<StepRow<K>, D, R> }

/** `compile` run on every step: a store's statements. */
export function compileSteps<D, R>(
  compile: <T>(step: WriteStep<T>) => StepStatement<T, D, R>,
): Statements<D, R> {
  const compiled: Partial<Record<StepName, unknown>> = {}
  for (const name of WRITE_ORDER) compiled[name] = compile(WRITE_STEPS[name] as WriteStep<unknown>)
  return compiled as Statements<D, R>
}

/** Runs each step's statement on its rows, on `db`, one step after the other in WRITE_ORDER. */
export async function runWrites<D>(
  db: D,
  gameId: string,
  writes: Writes,
  statements: Statements<D, void | Promise<void>>,
): Promise<void> {
  for (const name of WRITE_ORDER)
    await (statements[name] as StepStatement<unknown, D, void | Promise<void>>)(db, gameId, writes[name])
}

/** The values of `fields` in `row`, in order (a statement's parameters). */
export const valuesOf = <T>(row: T, fields: readonly Field<T>[]): unknown[] =>
  fields.map(([, , value]) => value(row))
