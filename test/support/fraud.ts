/**
 * Seeding fraud events and daily counters the way the ingestion pipeline writes them: events-store
 * `record()` inside a unit of work on the test app's database; and crafted fraudulent events to
 * send through the real ingestion (the e2e test, the README's pictures).
 */
import { randomUUID } from 'node:crypto'
import { utcDayNumber } from '../../daemon/clock.js'
import { exclusive } from '../../daemon/db/sqlite-group-engine.js'
import { postgresUnit, syncUnit } from '../../daemon/db/unit-of-work.js'
import {
  createFraudEventsStore,
  type FraudDailyIncrement,
  type FraudEventRecord,
} from '../../daemon/modules/gaming/fraud/events-store.js'
import { createPostgresFraudEventsStore } from '../../daemon/modules/gaming/fraud/events-store-postgres.js'
import type { TestApp } from './app.js'

/** The internal id (gam_…) of a game of the test app's organization, by slug. */
export async function gameIdOf(t: TestApp, slug: string, orgId = t.orgId): Promise<string> {
  return (await t.app.linkd.services.gaming.games.record(orgId, slug)).id
}

let seq = 0
/** A fraud event as the pipeline stores it (a flag on a bot by default), received now. */
export function fraudEvent(
  t: TestApp,
  gameId: string,
  over: Partial<FraudEventRecord> = {},
): FraudEventRecord {
  const receivedAt = over.receivedAt ?? t.clock.now()
  seq++
  return {
    id: `fev_test${String(seq).padStart(6, '0')}${randomUUID().slice(0, 8)}`,
    gameId,
    receivedAt,
    eventTime: receivedAt,
    playerId: 'player-1',
    eventId: randomUUID(),
    eventType: 'level_start',
    threatType: 'bot_detection',
    riskScore: 0.9,
    status: 'detected',
    triggeredRules: ['Block Bot Traffic'],
    triggeredCount: 1,
    reasons: { bot_detection: ['user agent names a bot'] },
    ip: '203.0.113.7',
    deviceFingerprint: 'fp-1',
    review: 'pending',
    reviewedAt: null,
    ...over,
  }
}

/**
 * Writes fraud events and one daily increment (zeros unless given; the day of the first event's
 * receipt, or today) in one transaction, as the pipeline does for a batch.
 */
export async function seedFraud(
  t: TestApp,
  gameId: string,
  events: FraudEventRecord[],
  daily: Partial<FraudDailyIncrement> = {},
): Promise<void> {
  const increment: FraudDailyIncrement = {
    gameId,
    day: utcDayNumber(events[0]?.receivedAt ?? t.clock.now()),
    analyzed: 0,
    blocked: 0,
    flagged: 0,
    logged: 0,
    latencyNs: 0,
    ...daily,
  }
  const { db } = t
  if (db.dialect === 'sqlite') {
    const store = createFraudEventsStore(db.sqlite, db.kysely)
    await exclusive(db.kysely, async () => {
      db.sqlite.exec('BEGIN IMMEDIATE')
      try {
        await store.record(events, increment, syncUnit(db.sqlite))
        db.sqlite.exec('COMMIT')
      } catch (err) {
        db.sqlite.exec('ROLLBACK')
        throw err
      }
    })
  } else {
    const store = createPostgresFraudEventsStore(db.kysely)
    await db.kysely.transaction().execute((trx) => store.record(events, increment, postgresUnit(trx)))
  }
}

/**
 * A batch's events (JSONL lines for `linkctl events send`) that the templates catch when sent from
 * one address: an install 3 s after its click (click injection, blocked), an emulator (blocked once
 * "Block Emulators" is on), thirty players within the hour (a device farm, flagged), and an
 * organic install 10 min after its click (not fraud).
 */
export function craftedFraudEvents(now: number): {
  events: Record<string, unknown>[]
  injected: string
  emulated: string
} {
  const iso = (ms: number) => new Date(ms).toISOString()
  const injected = randomUUID()
  const emulated = randomUUID()
  const events = [
    {
      event_id: injected,
      event_type: 'app_install',
      player_id: 'inj',
      data: { click_time: iso(now - 3_000) },
    },
    { event_type: 'app_install', player_id: 'organic', data: { click_time: iso(now - 600_000) } },
    { event_id: emulated, event_type: 'level_start', player_id: 'emu', data: { device_model: 'google_sdk' } },
    ...Array.from({ length: 30 }, (_, i) => ({
      event_type: 'session_start',
      player_id: `farm-${i}`,
      session_id: `s-${i}`,
    })),
  ].map((e) => ({ timestamp: iso(now), ...e }))
  return { events, injected, emulated }
}
