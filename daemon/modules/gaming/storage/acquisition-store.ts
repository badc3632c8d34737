import { sql, type Kysely, type SqlBool } from 'kysely'
import type { Database } from '../../../db/schema.js'

/** Revenue counters of a group (micro-units of the reporting currency). */
export interface RevenueCounters {
  iap: number
  ad: number
  subscription: number
  transactions: number
}

/** Acquisition counters of an attribution value over a range. */
export interface AcquisitionCounters {
  installs: number
  conversions: number
  revenue: number
  cost: number
  commission: number
}

/** Revenue counters and paying players of one day. */
export interface RevenueDay extends RevenueCounters {
  day: number
  payingPlayers: number
}

/** Revenue counters and installs of one value of a profile dimension over a range. */
export interface RevenueOfValue extends RevenueCounters {
  value: string
  installs: number
}

/** Cost, commission (micro-units) and conversions of one attribution value over a range. */
export interface AcquisitionOfValue {
  value: string
  cost: number
  commission: number
  conversions: number
}

/** Reads of revenue and acquisition from the daily layers: never raw events or player-days. */
export interface AcquisitionStore {
  /** Revenue counters and paying players of each day of [start, end] that has a row. */
  revenueByDay(gameId: string, start: number, end: number): Promise<RevenueDay[]>
  /** Revenue counters and installs per value of a profile dimension over [start, end]. */
  revenueByDim(gameId: string, dim: string, start: number, end: number): Promise<RevenueOfValue[]>
  /** Distinct paying players per value of dim (platform or source) over [start, end]. */
  payingByDim(gameId: string, dim: string, start: number, end: number): Promise<Map<string, number>>
  /** Transactions of the whole game over [start, end]. */
  transactions(gameId: string, start: number, end: number): Promise<number>
  /** Cost, commission and conversions per attribution value over [start, end]. */
  acquisitionByDim(gameId: string, dim: string, start: number, end: number): Promise<AcquisitionOfValue[]>
}

const num = (v: unknown) => Number(v ?? 0)

/** The rows of one dimension of a per-day-per-value table (dims, acquisition) over [start, end]. */
const dimDays = (gameId: string, dim: string, start: number, end: number) =>
  sql<SqlBool>`game_id = ${gameId} AND day >= ${start} AND day <= ${end} AND dim = ${dim}`

/** The acquisition reads on game_daily, game_daily_dims, game_acquisition_daily, game_dim_paying_gaps. */
export function createAcquisitionStore(db: Kysely<Database>): AcquisitionStore {
  return {
    async revenueByDay(gameId: string, start: number, end: number) {
      const rows = await db
        .selectFrom('game_daily')
        .select([
          'day',
          'revenue_iap_micros',
          'revenue_ad_micros',
          'revenue_subscription_micros',
          'transactions',
          'paying_players',
        ])
        .where('game_id', '=', gameId)
        .where('day', '>=', start)
        .where('day', '<=', end)
        .orderBy('day')
        .execute()
      return rows.map((r) => ({
        day: r.day,
        iap: num(r.revenue_iap_micros),
        ad: num(r.revenue_ad_micros),
        subscription: num(r.revenue_subscription_micros),
        transactions: num(r.transactions),
        payingPlayers: num(r.paying_players),
      }))
    },

    async revenueByDim(gameId: string, dim: string, start: number, end: number) {
      const rows = await db
        .selectFrom('game_daily_dims')
        .select((eb) => [
          'value',
          eb.fn.sum<number>('revenue_iap_micros').as('iap'),
          eb.fn.sum<number>('revenue_ad_micros').as('ad'),
          eb.fn.sum<number>('revenue_subscription_micros').as('sub'),
          eb.fn.sum<number>('transactions').as('transactions'),
          eb.fn.sum<number>('new_players').as('installs'),
        ])
        .where(dimDays(gameId, dim, start, end))
        .groupBy('value')
        .orderBy('value')
        .execute()
      return rows.map((r) => ({
        value: r.value,
        iap: num(r.iap),
        ad: num(r.ad),
        subscription: num(r.sub),
        transactions: num(r.transactions),
        installs: num(r.installs),
      }))
    },

    async payingByDim(gameId: string, dim: string, start: number, end: number): Promise<Map<string, number>> {
      const rows = await db
        .selectFrom('game_dim_paying_gaps')
        .select((eb) => ['value', eb.fn.sum<number>('players').as('n')])
        .where('game_id', '=', gameId)
        .where('dim', '=', dim)
        .where('day', '>=', start)
        .where('day', '<=', end)
        .where('prev_day', '<', start)
        .groupBy('value')
        .execute()
      return new Map(rows.map((r) => [r.value, num(r.n)]))
    },

    async transactions(gameId: string, start: number, end: number): Promise<number> {
      const r = await db
        .selectFrom('game_daily')
        .select((eb) => eb.fn.sum<number>('transactions').as('n'))
        .where('game_id', '=', gameId)
        .where('day', '>=', start)
        .where('day', '<=', end)
        .executeTakeFirst()
      return num(r?.n)
    },

    async acquisitionByDim(gameId: string, dim: string, start: number, end: number) {
      const rows = await db
        .selectFrom('game_acquisition_daily')
        .select((eb) => [
          'value',
          eb.fn.sum<number>('cost_micros').as('cost'),
          eb.fn.sum<number>('commission_micros').as('commission'),
          eb.fn.sum<number>('conversions').as('conversions'),
        ])
        .where(dimDays(gameId, dim, start, end))
        .groupBy('value')
        .orderBy('value')
        .execute()
      return rows.map((r) => ({
        value: r.value,
        cost: num(r.cost),
        commission: num(r.commission),
        conversions: num(r.conversions),
      }))
    },
  }
}
