/**
 * Fraud events and the daily pipeline counters (tables fraud_events, fraud_daily, migration 0013).
 * The pipeline's writes run inside the batch's unit of work (gamedata's `storeBatch` lends it), so
 * they are synchronous prepared statements, the SQLite hot path, kept inside this file; every
 * other access goes through Kysely and runs on SQLite and PostgreSQL.
 */
import type SQLite from 'better-sqlite3'
import type { Kysely } from 'kysely'
import { addCountersSql } from '../../db/counters.js'
import type { Database } from '../../db/schema.js'
import { assertOpenOn, type UnitOfWork } from '../../db/unit-of-work.js'
import type { ThreatType } from '../../../src/contract/fraud.js'

export type FraudEventStatus = 'blocked' | 'detected'
export type FraudReview = 'pending' | 'legitimate' | 'fraud'

/** One stored fraud event (a Block or a Flag). */
export interface FraudEventRecord {
  id: string
  gameId: string
  receivedAt: number
  eventTime: number
  playerId: string
  eventId: string
  eventType: string
  threatType: ThreatType | null
  riskScore: number
  status: FraudEventStatus
  triggeredRules: string[]
  /** The detectors' reasons, by threat type (those that scored 0.5 or more). */
  reasons: Partial<Record<ThreatType, string[]>>
  ip: string | null
  deviceFingerprint: string | null
  review: FraudReview
  reviewedAt: number | null
}

/** What one batch of a fraud-enabled game adds to its fraud_daily row. */
export interface FraudDailyIncrement {
  gameId: string
  /** UTC day number of the receipt. */
  day: number
  analyzed: number
  blocked: number
  flagged: number
  logged: number
  latencyNs: number
}

const DAILY_COUNTERS = ['analyzed', 'blocked', 'flagged', 'logged', 'latency_ns'] as const

export function createFraudEventsStore(sqlite: SQLite.Database, db: Kysely<Database>) {
  // SQLite-only: prepared statements run inside gamedata's unit of work.
  const statements = {
    insertEvent: sqlite.prepare(
      `INSERT INTO fraud_events (id, game_id, received_at, event_time, player_id, event_id, event_type,
         threat_type, risk_score, status, triggered_rules, reasons, ip, device_fingerprint, review, reviewed_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    addDaily: sqlite.prepare(addCountersSql('fraud_daily', ['game_id', 'day'], DAILY_COUNTERS)),
  }
  return {
    /** Writes a batch's fraud events and counters inside the batch's unit of work (synchronous). */
    record(events: readonly FraudEventRecord[], daily: FraudDailyIncrement, unit: UnitOfWork): void {
      assertOpenOn(unit, sqlite)
      for (const e of events)
        statements.insertEvent.run(
          e.id,
          e.gameId,
          e.receivedAt,
          e.eventTime,
          e.playerId,
          e.eventId,
          e.eventType,
          e.threatType,
          e.riskScore,
          e.status,
          JSON.stringify(e.triggeredRules),
          JSON.stringify(e.reasons),
          e.ip,
          e.deviceFingerprint,
          e.review,
          e.reviewedAt,
        )
      statements.addDaily.run(
        daily.gameId,
        daily.day,
        daily.analyzed,
        daily.blocked,
        daily.flagged,
        daily.logged,
        daily.latencyNs,
      )
    },
    /** Deletes a player's fraud events (GDPR); how many. */
    async purgePlayer(gameId: string, playerId: string): Promise<number> {
      const r = await db
        .deleteFrom('fraud_events')
        .where('game_id', '=', gameId)
        .where('player_id', '=', playerId)
        .executeTakeFirst()
      return Number(r.numDeletedRows)
    },
  }
}
export type FraudEventsStore = ReturnType<typeof createFraudEventsStore>
