import { sql, type Kysely } from 'kysely'
import type { Database } from '../../../db/schema.js'

/** One day's cohort figure: players of the install day active `dayOffset` days later (0 = size). */
export interface CohortCell {
  installDay: number
  dayOffset: number
  players: number
}

/** A player and an amount of their revenue (micro-units). */
export interface PlayerRevenue {
  playerId: string
  revenueMicros: number
}

/** One value of a daily dimension over a range: player-days, events, sessions, revenue (micro-units). */
export interface DimensionTotal {
  value: string
  playerDays: number
  events: number
  sessions: number
  revenueMicros: number
}

/**
 * The daily dimensions the breakdowns read: 'custom_event_uncounted' holds the custom-name events
 * whose players are not counted per name: of days stored before they were (migration 0031), and of
 * names past a player-day's INGEST_LIMITS.customNamesPerPlayerDay.
 */
export type DimensionTotalsDim = 'country' | 'event_type' | 'custom_event' | 'custom_event_uncounted'

/**
 * Reads of the gaming aggregates behind retention, leaderboard, geography and events.
 * Layer 4 only: cohorts, daily dimensions, distinct-player gaps, and the paying
 * player-days through their partial index (migration 0008); never raw events.
 */
export function breakdownReads(db: Kysely<Database>) {
  return {
    /** Cohort cells of the install days in [start, end] at the given offsets, by day then offset. */
    async cohortCells(gameId: string, start: number, end: number, offsets: number[]): Promise<CohortCell[]> {
      const rows = await db
        .selectFrom('game_cohorts')
        .select(['install_day', 'day_offset', 'players'])
        .where('game_id', '=', gameId)
        .where('install_day', '>=', start)
        .where('install_day', '<=', end)
        .where('day_offset', 'in', offsets)
        .orderBy('install_day')
        .orderBy('day_offset')
        .execute()
      return rows.map((r) => ({
        installDay: Number(r.install_day),
        dayOffset: Number(r.day_offset),
        players: Number(r.players),
      }))
    },

    /**
     * The players with the most revenue over [start, end], ties by player id. Reads the paying
     * player-days only: the literal `revenue_micros > 0` lets both databases use the partial index.
     */
    async topPayers(gameId: string, start: number, end: number, limit: number) {
      const rows = await db
        .selectFrom('game_player_days')
        .select(['player_id', (eb) => eb.fn.sum<number>('revenue_micros').as('revenue')])
        .where('game_id', '=', gameId)
        .where('day', '>=', start)
        .where('day', '<=', end)
        .where(sql<boolean>`revenue_micros > 0`)
        .groupBy('player_id')
        .orderBy('revenue', 'desc')
        .orderBy('player_id')
        .limit(limit)
        .execute()
      return rows.map((r) => ({ playerId: r.player_id, revenueMicros: Number(r.revenue) }))
    },

    /**
     * Paying players by lifetime revenue, most first, ties by player id, after the keyset
     * (`after`: the last row of the previous page). Reads the game_players_revenue index.
     */
    async payersByLifetime(
      gameId: string,
      after: { revenueMicros: number; playerId: string } | null,
      pageSize: number,
    ) {
      let query = db
        .selectFrom('game_players')
        .select(['player_id', 'revenue_total_micros'])
        .where('game_id', '=', gameId)
        .where('revenue_total_micros', '>', 0)
      if (after)
        query = query
          .where('revenue_total_micros', '<=', after.revenueMicros)
          .where((eb) =>
            eb.or([
              eb('revenue_total_micros', '<', after.revenueMicros),
              eb('player_id', '>', after.playerId),
            ]),
          )
      const rows = await query
        .orderBy('revenue_total_micros', 'desc')
        .orderBy('player_id')
        .limit(pageSize)
        .execute()
      return rows.map((r) => ({ playerId: r.player_id, revenueMicros: Number(r.revenue_total_micros) }))
    },

    /** Revenue earned in [start, end] by each of `playerIds` (primary key probes; payers only). */
    async revenueOfPlayers(gameId: string, playerIds: string[], start: number, end: number) {
      if (playerIds.length === 0) return new Map<string, number>()
      const rows = await db
        .selectFrom('game_player_days')
        .select(['player_id', (eb) => eb.fn.sum<number>('revenue_micros').as('revenue')])
        .where('game_id', '=', gameId)
        .where('player_id', 'in', playerIds)
        .where('day', '>=', start)
        .where('day', '<=', end)
        .groupBy('player_id')
        .orderBy('player_id')
        .execute()
      return new Map(rows.map((r) => [r.player_id, Number(r.revenue)]))
    },

    /** Per value of a daily dimension over [start, end]: summed counters, by value. */
    async dimensionTotals(gameId: string, dim: DimensionTotalsDim, start: number, end: number) {
      const rows = await db
        .selectFrom('game_daily_dims')
        .select((eb) => [
          'value',
          eb.fn.sum<number>('players').as('players'),
          eb.fn.sum<number>('events').as('events'),
          eb.fn.sum<number>('sessions').as('sessions'),
          eb.fn.sum<number>('revenue_iap_micros').as('iap'),
          eb.fn.sum<number>('revenue_ad_micros').as('ad'),
          eb.fn.sum<number>('revenue_subscription_micros').as('sub'),
        ])
        .where('game_id', '=', gameId)
        .where('day', '>=', start)
        .where('day', '<=', end)
        .where('dim', '=', dim)
        .groupBy('value')
        .orderBy('value')
        .execute()
      return rows.map((r) => ({
        value: r.value,
        playerDays: Number(r.players),
        events: Number(r.events),
        sessions: Number(r.sessions),
        revenueMicros: Number(r.iap) + Number(r.ad) + Number(r.sub),
      }))
    },

    /**
     * Distinct players of [start, end] per value of a gaps kind family: 'country:' (active players
     * by profile country, '' when unknown), 'type:' (players who sent the event type) or 'custom:'
     * (players who sent the custom event name).
     */
    async distinctPerKind(
      gameId: string,
      family: 'country:' | 'type:' | 'custom:',
      start: number,
      end: number,
    ) {
      const rows = await db
        .selectFrom('game_day_gaps')
        .select(['kind', (eb) => eb.fn.sum<number>('players').as('n')])
        .where('game_id', '=', gameId)
        // Every kind of the family: ';' follows ':' in ASCII.
        .where('kind', '>=', family)
        .where('kind', '<', `${family.slice(0, -1)};`)
        .where('day', '>=', start)
        .where('day', '<=', end)
        .where('prev_day', '<', start)
        .groupBy('kind')
        .orderBy('kind')
        .execute()
      return new Map(rows.map((r) => [r.kind.slice(family.length), Number(r.n)]))
    },
  }
}
