/**
 * Fraud events and the daily pipeline counters (tables fraud_events, fraud_daily, migration 0013).
 * The pipeline's writes (`record`) run inside the batch's unit of work (storage's `storeBatch`
 * lends it): on SQLite prepared statements on the raw connection, the hot path, kept inside this
 * file; on PostgreSQL multi-row statements on the unit's transaction (events-store-postgres.ts).
 * Every other access goes through Kysely (`fraudEventReads`) and runs on both engines.
 */
import type SQLite from 'better-sqlite3'
import { sql, type Kysely, type Selectable } from 'kysely'
import { DAY_MS } from '../../../clock.js'
import { chunked } from '../../../db/chunked.js'
import { addCountersSql } from '../../../db/counters.js'
import type { Database, FraudEventsTable } from '../../../db/schema.js'
import { assertOpenOn, type UnitOfWork } from '../../../db/unit-of-work.js'
import type { ThreatType } from '../../../../src/contract/fraud.js'
import type { FraudEventStatus } from '../../../../src/contract/fraud-limits.js'

export type { FraudEventStatus }
export type FraudReview = 'pending' | 'legitimate' | 'fraud'

/** One stored fraud event (a Block, a Flag, or a Log: status logged, not a threat). */
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
  /** The first names (FRAUD_LIMITS.triggeredNamesKept) of the rules that fired. */
  triggeredRules: string[]
  /** How many rules fired. */
  triggeredCount: number
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

/** Rows deleted per statement by the raw retention. */
const EXPIRE_CHUNK = 5000

const DAILY_COUNTERS = ['analyzed', 'blocked', 'flagged', 'logged', 'latency_ns'] as const

/** The fraud_daily counter that counted a fraud event of each status. */
const COUNTER_OF_STATUS = { blocked: 'blocked', detected: 'flagged', logged: 'logged' } as const

/**
 * Which fraud events a list shows; `from`/`to` are Unix ms, `to` excluded. No status: blocked and
 * detected (the threats), logged records only when asked for.
 */
export interface FraudEventFilter {
  threatType?: ThreatType
  status?: FraudEventStatus
  playerId?: string
  from?: number
  to?: number
}

/** The fraud events of a range counted by threat type, status and review (the dashboard's input). */
export interface FraudEventCount {
  threatType: ThreatType | null
  status: FraudEventStatus
  review: FraudReview
  count: number
}

export type FraudDailyTotals = Omit<FraudDailyIncrement, 'gameId' | 'day'>

function toRecord(r: Selectable<FraudEventsTable>): FraudEventRecord {
  return {
    id: r.id,
    gameId: r.game_id,
    receivedAt: Number(r.received_at),
    eventTime: Number(r.event_time),
    playerId: r.player_id,
    eventId: r.event_id,
    eventType: r.event_type,
    threatType: r.threat_type as ThreatType | null,
    riskScore: r.risk_score,
    status: r.status as FraudEventStatus,
    triggeredRules: JSON.parse(r.triggered_rules) as string[],
    // Rows written before the count was kept named every rule.
    triggeredCount: Math.max(Number(r.triggered_count), (JSON.parse(r.triggered_rules) as string[]).length),
    reasons: JSON.parse(r.reasons) as FraudEventRecord['reasons'],
    ip: r.ip,
    deviceFingerprint: r.device_fingerprint,
    review: r.review as FraudReview,
    reviewedAt: r.reviewed_at === null ? null : Number(r.reviewed_at),
  }
}

/** The SQL text of the daily counters' upsert (`?` placeholders; PostgreSQL numbers them). */
export const ADD_FRAUD_DAILY_SQL = addCountersSql('fraud_daily', ['game_id', 'day'], DAILY_COUNTERS)

/** The daily increment's parameters, in the order of ADD_FRAUD_DAILY_SQL. */
export const dailyParams = (d: FraudDailyIncrement) => [
  d.gameId,
  d.day,
  d.analyzed,
  d.blocked,
  d.flagged,
  d.logged,
  d.latencyNs,
]

export function createFraudEventsStore(sqlite: SQLite.Database, db: Kysely<Database>) {
  // SQLite-only: prepared statements run inside storage's unit of work.
  const statements = {
    insertEvent: sqlite.prepare(
      `INSERT INTO fraud_events (id, game_id, received_at, event_time, player_id, event_id, event_type,
         threat_type, risk_score, status, triggered_rules, triggered_count, reasons, ip, device_fingerprint,
         review, reviewed_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    addDaily: sqlite.prepare(ADD_FRAUD_DAILY_SQL),
  }
  return {
    /** Writes a batch's fraud events and counters inside the batch's unit of work. */
    async record(events: readonly FraudEventRecord[], daily: FraudDailyIncrement, unit: UnitOfWork) {
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
          e.triggeredCount,
          JSON.stringify(e.reasons),
          e.ip,
          e.deviceFingerprint,
          e.review,
          e.reviewedAt,
        )
      statements.addDaily.run(...dailyParams(daily))
    },
    ...fraudEventReads(db),
  }
}

/** The Kysely side of the store, the same on both engines. */
export function fraudEventReads(db: Kysely<Database>) {
  return {
    /**
     * Deletes a player's fraud events (GDPR), and takes them out of the `blocked`, `flagged` and
     * `logged` counters of their days, in one transaction: the dashboard's threatsDetected (rows) and
     * blocked + flagged (counters) keep agreeing (docs/reference/fraud.md).
     * How many events.
     */
    async purgePlayer(gameId: string, playerId: string): Promise<number> {
      return db.transaction().execute(async (trx) => {
        // The UTC day of the receipt, as the stage counted it (integer division on both engines).
        const day = sql<number>`received_at / ${sql.lit(DAY_MS)}`
        const groups = await trx
          .selectFrom('fraud_events')
          .select([day.as('day'), 'status', (eb) => eb.fn.countAll<number>().as('n')])
          .where('game_id', '=', gameId)
          .where('player_id', '=', playerId)
          .groupBy([day, 'status'])
          .execute()
        for (const g of groups) {
          const n = Number(g.n)
          const column = COUNTER_OF_STATUS[g.status as FraudEventStatus]
          const less = sql<number>`CASE WHEN ${sql.ref(column)} > ${n} THEN ${sql.ref(column)} - ${n} ELSE 0 END`
          await trx
            .updateTable('fraud_daily')
            .set({ [column]: less })
            .where('game_id', '=', gameId)
            .where('day', '=', Number(g.day))
            .execute()
        }
        const r = await trx
          .deleteFrom('fraud_events')
          .where('game_id', '=', gameId)
          .where('player_id', '=', playerId)
          .executeTakeFirst()
        return Number(r.numDeletedRows)
      })
    },

    /**
     * One page of a game's fraud events, newest first (receivedAt, then id, both descending: the
     * index fraud_events_game_time, or fraud_events_player with a player), and how many match.
     */
    async page(
      gameId: string,
      filter: FraudEventFilter,
      page: { limit: number; offset: number },
    ): Promise<{ rows: FraudEventRecord[]; total: number }> {
      let q = db.selectFrom('fraud_events').where('game_id', '=', gameId)
      if (filter.playerId !== undefined) q = q.where('player_id', '=', filter.playerId)
      if (filter.threatType !== undefined) q = q.where('threat_type', '=', filter.threatType)
      q = q.where('status', filter.status === undefined ? '<>' : '=', filter.status ?? 'logged')
      if (filter.from !== undefined) q = q.where('received_at', '>=', filter.from)
      if (filter.to !== undefined) q = q.where('received_at', '<', filter.to)
      const [rows, count] = await Promise.all([
        q
          .selectAll()
          .orderBy('received_at', 'desc')
          .orderBy('id', 'desc')
          .limit(page.limit)
          .offset(page.offset)
          .execute(),
        q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ])
      return { rows: rows.map(toRecord), total: Number(count.n) }
    },

    async get(gameId: string, id: string): Promise<FraudEventRecord | undefined> {
      const r = await db
        .selectFrom('fraud_events')
        .selectAll()
        .where('game_id', '=', gameId)
        .where('id', '=', id)
        .executeTakeFirst()
      return r && toRecord(r)
    },

    /** Sets a fraud event's review; false when the game has no such event. */
    async setReview(
      gameId: string,
      id: string,
      review: FraudReview,
      reviewedAt: number | null,
    ): Promise<boolean> {
      const r = await db
        .updateTable('fraud_events')
        .set({ review, reviewed_at: reviewedAt })
        .where('game_id', '=', gameId)
        .where('id', '=', id)
        .executeTakeFirst()
      return Number(r.numUpdatedRows) > 0
    },

    /** The fraud events received in [from, to) counted by threat type, status and review. */
    async countsBetween(gameId: string, from: number, to: number): Promise<FraudEventCount[]> {
      const rows = await db
        .selectFrom('fraud_events')
        .select(['threat_type', 'status', 'review', (eb) => eb.fn.countAll<number>().as('n')])
        .where('game_id', '=', gameId)
        .where('received_at', '>=', from)
        .where('received_at', '<', to)
        .groupBy(['threat_type', 'status', 'review'])
        .execute()
      return rows.map((r) => ({
        threatType: r.threat_type as ThreatType | null,
        status: r.status as FraudEventStatus,
        review: r.review as FraudReview,
        count: Number(r.n),
      }))
    },

    /** The fraud_daily counters of a game summed over the UTC days start…end (both included). */
    async dailyTotals(gameId: string, start: number, end: number): Promise<FraudDailyTotals> {
      const r = await db
        .selectFrom('fraud_daily')
        .select((eb) => [
          eb.fn.sum<number>('analyzed').as('analyzed'),
          eb.fn.sum<number>('blocked').as('blocked'),
          eb.fn.sum<number>('flagged').as('flagged'),
          eb.fn.sum<number>('logged').as('logged'),
          eb.fn.sum<number>('latency_ns').as('latency_ns'),
        ])
        .where('game_id', '=', gameId)
        .where('day', '>=', start)
        .where('day', '<=', end)
        .executeTakeFirstOrThrow()
      return {
        analyzed: Number(r.analyzed ?? 0),
        blocked: Number(r.blocked ?? 0),
        flagged: Number(r.flagged ?? 0),
        logged: Number(r.logged ?? 0),
        latencyNs: Number(r.latency_ns ?? 0),
      }
    },

    /**
     * Deletes a game's fraud events received before `cutoff` (raw retention), in bounded chunks
     * (the index fraud_events_game_time); how many.
     */
    expireBefore(gameId: string, cutoff: number): Promise<number> {
      return chunked(EXPIRE_CHUNK, async () => {
        const ids = await db
          .selectFrom('fraud_events')
          .select('id')
          .where('game_id', '=', gameId)
          .where('received_at', '<', cutoff)
          .limit(EXPIRE_CHUNK)
          .execute()
        if (!ids.length) return 0
        await db
          .deleteFrom('fraud_events')
          .where(
            'id',
            'in',
            ids.map((r) => r.id),
          )
          .execute()
        return ids.length
      })
    },
  }
}

/** The port: `record` per engine, the rest shared. */
export type FraudEventsStore = ReturnType<typeof createFraudEventsStore>
