/** Shapes shared by the gamedata module's fold, store and service. */
import type { GamePlatform, RevenueType } from '../../../src/contract/limits.js'
import type { GameDailyDimsTable, GameDailyTable } from '../../db/schema.js'

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
  revenueMicros: number
  currency: string | null
  country: string | null
  deviceFingerprint: string | null
  attribution: {
    affiliate: string | null
    campaign: string | null
    source: string | null
    medium: string | null
  }
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

/** A batch handed over by the ingestion. */
export interface AcceptedBatch {
  gameId: string
  batchId: string
  receivedAt: number
  ip: string | null
  events: AcceptedEvent[]
}

/** What one batch added to the raw layer. */
export interface BatchCounts {
  stored: number
  duplicates: number
  flagged: number
}
