import type { Kysely } from 'kysely'
import type { Database } from '../../../db/schema.js'
import {
  breakdownReads,
  type CohortCell,
  type DimensionTotal,
  type DimensionTotalsDim,
  type PlayerRevenue,
} from './breakdowns-store.js'
import { retentionReads, type GroupCohortCell } from './retention-store.js'

/** Revenue (micro-units), sessions and session seconds summed over a range of days. */
export interface DailyTotals {
  iap: number
  ad: number
  subscription: number
  sessions: number
  sessionSeconds: number
}

/** Reads of the gaming aggregates (layer 4): never raw events; player-days only through the paying days. */
export interface AggregatesStore {
  /** Revenue, sessions and session seconds of the game over [start, end]. */
  dailyTotals(gameId: string, start: number, end: number): Promise<DailyTotals>
  /** Players active on one day. */
  activeOn(gameId: string, day: number): Promise<number>
  /** Distinct players active (or paying) on any day of [start, end]. */
  distinct(gameId: string, kind: 'active' | 'paying', start: number, end: number): Promise<number>
  /** Cohort sizes and players retained `offset` days later, for install days in [start, end]. */
  retention(
    gameId: string,
    offset: number,
    start: number,
    end: number,
  ): Promise<{ size: number; retained: number }>
  /** Cohort cells of the install days in [start, end] at the given offsets, by day then offset. */
  cohortCells(gameId: string, start: number, end: number, offsets: number[]): Promise<CohortCell[]>
  /** Cohort cells per value of an acquisition grouping (dim: platform, country, source, campaign, link). */
  cohortDimCells(
    gameId: string,
    dim: string,
    start: number,
    end: number,
    offsets: number[],
  ): Promise<GroupCohortCell[]>
  /**
   * Players of the install days in [start, end] who sent `eventType` on the day `offset` days
   * later, at the given offsets; dim '' for all players, else per value of that grouping.
   */
  returnCells(
    gameId: string,
    eventType: string,
    dim: string,
    start: number,
    end: number,
    offsets: number[],
  ): Promise<GroupCohortCell[]>
  /** The `limit` players with the most revenue over [start, end], ties by player id. */
  topPayers(gameId: string, start: number, end: number, limit: number): Promise<PlayerRevenue[]>
  /** Paying players by lifetime revenue, most first, ties by player id, after the keyset `after`. */
  payersByLifetime(gameId: string, after: PlayerRevenue | null, pageSize: number): Promise<PlayerRevenue[]>
  /** Revenue earned in [start, end] by each of `playerIds` (payers only). */
  revenueOfPlayers(
    gameId: string,
    playerIds: string[],
    start: number,
    end: number,
  ): Promise<Map<string, number>>
  /** Summed counters per value of a daily dimension over [start, end], by value. */
  dimensionTotals(
    gameId: string,
    dim: DimensionTotalsDim,
    start: number,
    end: number,
  ): Promise<DimensionTotal[]>
  /** Distinct players of [start, end] per profile country, event type or custom event name. */
  distinctPerKind(
    gameId: string,
    family: 'country:' | 'type:' | 'custom:',
    start: number,
    end: number,
  ): Promise<Map<string, number>>
}

export function createAggregatesStore(db: Kysely<Database>): AggregatesStore {
  return {
    ...breakdownReads(db),
    ...retentionReads(db),
    async dailyTotals(gameId: string, start: number, end: number) {
      const r = await db
        .selectFrom('game_daily')
        .where('game_id', '=', gameId)
        .where('day', '>=', start)
        .where('day', '<=', end)
        .select((eb) => [
          eb.fn.sum<number>('revenue_iap_micros').as('iap'),
          eb.fn.sum<number>('revenue_ad_micros').as('ad'),
          eb.fn.sum<number>('revenue_subscription_micros').as('sub'),
          eb.fn.sum<number>('sessions').as('sessions'),
          eb.fn.sum<number>('session_seconds').as('seconds'),
        ])
        .executeTakeFirst()
      return {
        iap: Number(r?.iap ?? 0),
        ad: Number(r?.ad ?? 0),
        subscription: Number(r?.sub ?? 0),
        sessions: Number(r?.sessions ?? 0),
        sessionSeconds: Number(r?.seconds ?? 0),
      }
    },
    async activeOn(gameId: string, day: number): Promise<number> {
      const r = await db
        .selectFrom('game_daily')
        .select('active_players')
        .where('game_id', '=', gameId)
        .where('day', '=', day)
        .executeTakeFirst()
      return Number(r?.active_players ?? 0)
    },
    async distinct(gameId: string, kind: 'active' | 'paying', start: number, end: number): Promise<number> {
      const r = await db
        .selectFrom('game_day_gaps')
        .select((eb) => eb.fn.sum<number>('players').as('n'))
        .where('game_id', '=', gameId)
        .where('kind', '=', kind)
        .where('day', '>=', start)
        .where('day', '<=', end)
        .where('prev_day', '<', start)
        .executeTakeFirst()
      return Number(r?.n ?? 0)
    },
    async retention(gameId: string, offset: number, start: number, end: number) {
      const rows = await db
        .selectFrom('game_cohorts')
        .select(['day_offset', (eb) => eb.fn.sum<number>('players').as('n')])
        .where('game_id', '=', gameId)
        .where('install_day', '>=', start)
        .where('install_day', '<=', end)
        .where('day_offset', 'in', [0, offset])
        .groupBy('day_offset')
        .execute()
      const of = (o: number) => Number(rows.find((r) => r.day_offset === o)?.n ?? 0)
      return { size: of(0), retained: of(offset) }
    },
  }
}
