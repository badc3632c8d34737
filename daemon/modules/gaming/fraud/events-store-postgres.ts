/**
 * The PostgreSQL fraud events store: a batch's fraud events in one multi-row INSERT and its daily
 * counters in one upsert (the SQL text of events-store.ts), on the batch's transaction; the
 * reads, reviews, purge and expiry are the shared Kysely side.
 */
import type { Kysely } from 'kysely'
import type { Database } from '../../../db/schema.js'
import { insertRows, numbered, query, type Column } from '../../../db/postgres-rows.js'
import { kyselyOf } from '../../../db/unit-of-work.js'
import {
  ADD_FRAUD_DAILY_SQL,
  dailyParams,
  fraudEventReads,
  type FraudEventRecord,
  type FraudEventsStore,
} from './events-store.js'

const EVENT_COLUMNS: Column<FraudEventRecord>[] = [
  ['id', 'text', (e) => e.id],
  ['received_at', 'int8', (e) => e.receivedAt],
  ['event_time', 'int8', (e) => e.eventTime],
  ['player_id', 'text', (e) => e.playerId],
  ['event_id', 'text', (e) => e.eventId],
  ['event_type', 'text', (e) => e.eventType],
  ['threat_type', 'text', (e) => e.threatType],
  ['risk_score', 'float8', (e) => e.riskScore],
  ['status', 'text', (e) => e.status],
  ['triggered_rules', 'text', (e) => JSON.stringify(e.triggeredRules)],
  ['triggered_count', 'int8', (e) => e.triggeredCount],
  ['reasons', 'text', (e) => JSON.stringify(e.reasons)],
  ['ip', 'text', (e) => e.ip],
  ['device_fingerprint', 'text', (e) => e.deviceFingerprint],
  ['review', 'text', (e) => e.review],
  ['reviewed_at', 'int8', (e) => e.reviewedAt],
]

export function createPostgresFraudEventsStore(db: Kysely<Database>): FraudEventsStore {
  const insertEvents = insertRows('fraud_events', EVENT_COLUMNS)
  const addDaily = numbered(ADD_FRAUD_DAILY_SQL)
  return {
    async record(events, daily, unit) {
      const trx = kyselyOf(unit)
      // A batch's events belong to its game: one statement (one per game if ever mixed).
      for (const gameId of new Set(events.map((e) => e.gameId)))
        await insertEvents(
          trx,
          gameId,
          events.filter((e) => e.gameId === gameId),
        )
      await query(trx, addDaily, dailyParams(daily))
    },
    ...fraudEventReads(db),
  }
}
