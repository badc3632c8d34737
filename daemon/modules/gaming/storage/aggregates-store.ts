import type { Kysely } from 'kysely'
import type { Database } from '../../../db/schema.js'
import { breakdownReads } from './breakdowns-store.js'

/** Reads of the gaming aggregates (layer 4). Never scans raw events or player-days. */
export function createAggregatesStore(db: Kysely<Database>) {
  return {
    ...breakdownReads(db),
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
    /** Distinct players active (or paying) on any day of [start, end]. */
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
    /** Cohort sizes and players retained `offset` days later, for install days in [start, end]. */
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
export type AggregatesStore = ReturnType<typeof createAggregatesStore>
