/**
 * The fold's working state for one batch: the snapshot the layers read and the rows they build.
 * Every layer function updates this state only (no database, clock or randomness), so each one
 * stays as testable as the whole fold; the maps keep first-touch order, which is the output order.
 */
import type { RevenueType } from '../../../../../src/contract/limits.js'
import type {
  AcquisitionIncrement,
  CohortDimIncrement,
  CohortIncrement,
  DailyCounters,
  DimCounters,
  DimGapIncrement,
  GameEvent,
  GapIncrement,
  PlayerDayRow,
  ProfileRow,
  SessionRow,
  Snapshot,
} from '../types.js'

/** A session as the batch sees it: new, or read from the snapshot (and maybe changed). */
export type LiveSession = SessionRow & { isNew: boolean; touched: boolean; loadedStart: number }
export type LiveProfile = ProfileRow & { known: boolean; loadedLastDay: number; dirty: boolean }
/** customNames: custom_events read (and extended) by the batch; absent until a custom event. */
export type LiveDay = PlayerDayRow & { payingBefore: boolean; isNew: boolean; customNames?: Set<string> }
export type DimRow = { day: number; dim: string; value: string; counters: DimCounters }

export interface FoldState {
  snapshot: Snapshot
  newSessionId: (startedAt: number) => string
  /**
   * Each player's events of the batch, in batch order: their first-touch values are the player's
   * from its first event of the batch on (a batch is one delivery), whatever order they came in.
   */
  playerEvents: Map<string, GameEvent[]>
  profiles: Map<string, LiveProfile>
  /** Player-day rows by pairKey(player, day). */
  days: Map<string, LiveDay>
  /** Days added / made paying by this batch, per player (not in the snapshot). */
  batchDays: Map<string, number[]>
  batchPayDays: Map<string, number[]>
  /** Days of each (player, type bit) or (player, 'custom:' name) added by this batch. */
  batchTypeDays: Map<string, number[]>
  /** Install days moved back, per player. */
  installMoves: Map<string, number>
  sessions: Map<string, LiveSession>
  /** Session by pairKey(player, session_id); null: none. */
  bySid: Map<string, LiveSession | null>
  /** Each player's current session (latest by last event); null: none. */
  latest: Map<string, LiveSession | null>
  daily: Map<number, DailyCounters>
  /** Dimension rows, in the order they came. */
  dims: DimRow[]
  /** The same rows by day, dim and value (nested: no key string per event and dimension). */
  dimIndex: Map<number, Map<string, Map<string, DimRow>>>
  gaps: Map<string, GapIncrement>
  cohorts: Map<string, CohortIncrement>
  cohortDims: Map<string, CohortDimIncrement>
  acquisition: Map<string, AcquisitionIncrement>
  dimPayingGaps: Map<string, DimGapIncrement>
}

export function createFoldState(
  snapshot: Snapshot,
  newSessionId: (startedAt: number) => string,
  events: readonly GameEvent[] = [],
): FoldState {
  const playerEvents = new Map<string, GameEvent[]>()
  for (const e of events) {
    const list = playerEvents.get(e.playerId)
    if (list) list.push(e)
    else playerEvents.set(e.playerId, [e])
  }
  return {
    snapshot,
    newSessionId,
    playerEvents,
    profiles: new Map(),
    days: new Map(),
    batchDays: new Map(),
    batchPayDays: new Map(),
    batchTypeDays: new Map(),
    installMoves: new Map(),
    sessions: new Map(),
    bySid: new Map(),
    latest: new Map(),
    daily: new Map(),
    dims: [],
    dimIndex: new Map(),
    gaps: new Map(),
    cohorts: new Map(),
    cohortDims: new Map(),
    acquisition: new Map(),
    dimPayingGaps: new Map(),
  }
}

/** The revenue column of each revenue type (game_daily, game_daily_dims, game_players). */
export const REVENUE_COLUMN: Record<
  RevenueType,
  'revenue_iap_micros' | 'revenue_ad_micros' | 'revenue_subscription_micros'
> = {
  iap: 'revenue_iap_micros',
  ad: 'revenue_ad_micros',
  subscription: 'revenue_subscription_micros',
}

/** Appends `day` to the player's list in `m`. */
export function pushDay(m: Map<string, number[]>, player: string, day: number): void {
  const list = m.get(player)
  if (list) list.push(day)
  else m.set(player, [day])
}

/**
 * A copy of a working row without its working fields, built field by field: a copy with fields
 * deleted becomes a slow dictionary object for the statements that read it.
 */
export function strip<T extends object>(row: T, ...keys: string[]): T {
  const copy: Record<string, unknown> = {}
  for (const k of Object.keys(row)) if (!keys.includes(k)) copy[k] = (row as Record<string, unknown>)[k]
  return copy as T
}
