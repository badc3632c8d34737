/** Shapes shared by the storage module's fold, store and service. */
import {
  NAMED_EVENT_TYPES,
  type GamePlatform,
  type PlayerGroup,
  type RevenueType,
} from '../../../../src/contract/limits.js'
import type {
  Camelized,
  GameAcquisitionDailyTable,
  GameDimPayingGapsTable,
  GameCohortsTable,
  GameCohortDimsTable,
  GameCohortEventsTable,
  GameDayGapsTable,
  GameDailyDimsTable,
  GameDailyTable,
  GamePlayerDaysTable,
  GamePlayersTable,
  GameSessionsTable,
} from '../../../db/schema.js'

/**
 * The bits of game_player_days.event_types: bit i is NAMED_EVENT_TYPES[i], and every custom type
 * shares the bit after them. TYPE_BIT maps a named type to its bit; EVENT_TYPE_BY_BIT reads back.
 */
export const TYPE_BIT: ReadonlyMap<string, number> = new Map(NAMED_EVENT_TYPES.map((t, i) => [t, i]))
export const CUSTOM_BIT = NAMED_EVENT_TYPES.length

/** Whether a stored custom_events list (a JSON array of names) holds `name` (names have no quotes). */
export const holdsName = (list: string | null, name: string) => list !== null && list.includes(`"${name}"`)
export const EVENT_TYPE_BY_BIT: readonly string[] = [...NAMED_EVENT_TYPES, 'custom']

/** An event the ingestion accepted (validated and judged), as the storage layers need it. */
export interface GameEvent {
  eventId: string
  type: string
  /** Bit of the type in game_player_days.event_types. */
  typeBit: number
  custom: boolean
  ts: number
  /** UTC day of ts. */
  day: number
  playerId: string
  sessionId: string | null
  platform: GamePlatform
  dataJson: string | null
  revenueType: RevenueType | null
  /** In the game's reporting currency (converted at ingestion). */
  revenueMicros: number
  /** The reporting currency when the event carries revenue. */
  currency: string | null
  /** Acquisition cost of an app_install (data.cost), reporting-currency micro-units. */
  costMicros: number
  /** Affiliate commission of a revenue event (data.commission), reporting-currency micro-units. */
  commissionMicros: number
  country: string | null
  deviceFingerprint: string | null
  attribution: Attribution
  /** An app_install's data.click_id (a smart-link click id, `clk_…`), as sent. */
  installClick?: string
  /** That click, found in the game's organization and within its window (ingestion). */
  click?: ClickCredit
  /** The click this install is credited with: claimed in the batch's transaction (storage). */
  credit?: ClickCredit
}

/** A smart-link click an app_install may be attributed to; UTM fields from the link's destination. */
export interface ClickCredit {
  clickId: string
  linkId: string
  source: string | null
  medium: string | null
  campaign: string | null
}

/** First-touch attribution fields read from `data`. */
export interface Attribution {
  affiliate: string | null
  campaign: string | null
  source: string | null
  medium: string | null
}

/** An accepted event with the pipeline's verdict (blocked events never reach the storage). */
export interface AcceptedEvent {
  event: GameEvent
  verdict: 'accept' | 'flag'
}

/** The counters of one game_daily row (derived from the schema). */
export type DailyCounters = Omit<GameDailyTable, 'game_id' | 'day'>
/** The counters of one game_daily_dims row. */
export type DimCounters = Omit<GameDailyDimsTable, 'game_id' | 'day' | 'dim' | 'value'>

/** An increment of one game_day_gaps row (derived from the schema; kind narrowed). */
export type GapIncrement = Omit<Camelized<GameDayGapsTable>, 'gameId' | 'kind'> & {
  /**
   * 'country:<code>': the active days of the players of one profile country (geography);
   * 'type:<type>': the days of a named type (or any custom one), 'custom:<name>': of a custom name.
   */
  kind: 'active' | 'paying' | `country:${string}` | `type:${string}` | `custom:${string}`
}
/** An increment of one game_cohorts row. */
export type CohortIncrement = Omit<Camelized<GameCohortsTable>, 'gameId'>
/**
 * The profile column of each acquisition grouping (funnels; retention by group: game_cohort_dims'
 * dim): platform and country from the profile, source, campaign and link from the install.
 */
export const GROUP_COLUMNS = {
  platform: 'platform',
  country: 'country',
  source: 'source',
  campaign: 'campaign',
  link: 'link_id',
} as const satisfies Record<PlayerGroup, keyof ProfileRow>
export type GroupColumn = (typeof GROUP_COLUMNS)[PlayerGroup]
/** An increment of one game_cohort_dims row. */
export type CohortDimIncrement = Omit<Camelized<GameCohortDimsTable>, 'gameId'>
/** An increment of one game_cohort_events row. */
export type CohortEventIncrement = Omit<Camelized<GameCohortEventsTable>, 'gameId'>

/** A batch handed over by the ingestion. */
export interface AcceptedBatch {
  gameId: string
  /** The game's organization: install attribution claims its click ids (none without it). */
  organizationId?: string
  batchId: string
  receivedAt: number
  ip: string | null
  events: AcceptedEvent[]
}

/** What a batch's unit of work covers: its batch_id and its players (what the fold reads). */
export interface BatchLocks {
  batchId: string
  playerIds: readonly string[]
}

/** What one batch added to the raw layer. */
export interface BatchCounts {
  stored: number
  duplicates: number
  flagged: number
}

/** Rows as read within the batch's game (the game_id column left out). */
export type ProfileRow = Omit<GamePlayersTable, 'game_id'>
export type PlayerDayRow = Omit<GamePlayerDaysTable, 'game_id'>
export type SessionRow = Omit<GameSessionsTable, 'game_id'>

/** prev_day of a first active (or paying) day. */
export const NO_DAY = -1

/**
 * The ceiling of every stored sum of money (micro-units): a game's day, a player's day or lifetime,
 * a dimension's day. Sums saturate there instead of overflowing (a 64-bit column on PostgreSQL,
 * Infinity on SQLite); it stays exact in a JavaScript number, and the 366 days of the longest
 * range still add up within 64 bits. docs/reference/gaming.md (Currency).
 */
export const MONEY_SUM_MAX_MICROS = Number.MAX_SAFE_INTEGER
/** `sum + add`, at most MONEY_SUM_MAX_MICROS. */
export const addMoney = (sum: number, add: number): number => Math.min(MONEY_SUM_MAX_MICROS, sum + add)

/** Key of a (player, day) or (player, session_id) pair in the snapshot's maps. */
export const pairKey = (player: string, x: number | string) => `${player}\n${x}`

/** Previous and next day of a player's days around a day (next null: none later). */
export interface Neighbours {
  prev: number
  next: number | null
}

/** What the fold looks up by key: a Map, or rows read only when asked for (snapshot-read.ts). */
export interface Lookup<V> {
  get(key: string): V | undefined
}

/**
 * Everything the fold reads, as the table held it before the batch, for the batch's players only.
 * Maps and lookups leave out what does not exist (an unknown player, a day without a row). What
 * a player's whole history answers (neighbours, all days) is read only when the fold asks for it.
 */
export interface Snapshot {
  /** Event ids of the batch already stored (duplicates of an earlier batch). */
  storedEventIds: ReadonlySet<string>
  /** Profiles of known players, by player id. */
  profiles: ReadonlyMap<string, ProfileRow>
  /** Player-day rows of the batch's (player, day) pairs, by pairKey(player, day). */
  playerDays: ReadonlyMap<string, PlayerDayRow>
  /** Active-day neighbours of a known player's batch day that has no row. */
  activeNeighbours: Lookup<Neighbours>
  /** Paying-day neighbours of a known player's batch day with a revenue event. */
  payingNeighbours: Lookup<Neighbours>
  /** Every active day of a known player with an event before its install day. */
  allDays: Lookup<readonly number[]>
  /** Sessions by pairKey(player, session_id), the latest start of each. */
  sessionsBySid: ReadonlyMap<string, SessionRow>
  /** Sessions by id: the current session of each known profile. */
  sessionsById: ReadonlyMap<string, SessionRow>
  /**
   * Every stored day of each known player of the batch with its event-type bits and custom names
   * (events: distinct players per type and per custom name).
   */
  typeDays: Lookup<ReadonlyArray<Pick<PlayerDayRow, 'day' | 'event_types' | 'custom_events'>>>
}

export interface SessionWrite {
  row: SessionRow
  /** insert: new; start: started_at moved (earlier event); update: the rest. */
  write: 'insert' | 'start' | 'update'
}

export interface ProfileWrite {
  row: ProfileRow
  /** insert: new player; all: first-touch or revenue fields changed; activity: counters only. */
  write: 'insert' | 'all' | 'activity'
}

/** What the store writes, in one transaction. */
export interface Changes {
  /** Layer 1: events not stored before, in time order. */
  newEvents: AcceptedEvent[]
  stored: number
  duplicates: number
  flagged: number
  sessions: SessionWrite[]
  profiles: ProfileWrite[]
  /** Existing player-day rows whose install day moves back (an older first event). */
  installDayMoves: Array<{ playerId: string; installDay: number }>
  playerDays: Array<{ row: PlayerDayRow; isNew: boolean }>
  daily: Array<{ day: number } & DailyCounters>
  dims: Array<{ day: number; dim: string; value: string } & DimCounters>
  /** Non-zero increments of game_day_gaps. */
  gaps: Array<GapIncrement>
  /** Non-zero increments of game_cohorts. */
  cohorts: Array<CohortIncrement>
  /** Non-zero increments of game_cohort_dims. */
  cohortDims: Array<CohortDimIncrement>
  /** Non-zero increments of game_cohort_events. */
  cohortEvents: Array<CohortEventIncrement>
  /** Increments of game_acquisition_daily (cost, commission, conversions per attribution value). */
  acquisition: Array<AcquisitionIncrement>
  /** Non-zero increments of game_dim_paying_gaps (paying players per platform / source). */
  dimPayingGaps: Array<DimGapIncrement>
}

/** An increment of one game_acquisition_daily row. */
export type AcquisitionIncrement = Omit<GameAcquisitionDailyTable, 'game_id'>
/** An increment of one game_dim_paying_gaps row. */
export type DimGapIncrement = Omit<Camelized<GameDimPayingGapsTable>, 'gameId'>
