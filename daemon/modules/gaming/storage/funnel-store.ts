/**
 * What funnels read: one event type's raw events in time order (index game_events_funnel, which
 * covers them unless the step has a data condition), and the players' acquisition values.
 */
import type { Kysely } from 'kysely'
import type { Database } from '../../../db/schema.js'
import type { GroupColumn } from './types.js'

/** One raw event of a funnel step's type. */
export interface FunnelEventRow {
  playerId: string
  eventId: string
  ts: number
  /** The event's data as stored (JSON text); only read when the step has a condition. */
  data: string | null
}

export interface FunnelStore {
  /**
   * The events of `type` with from <= ts <= to in pages, by (ts, player, event id): a page ends
   * between two milliseconds, so memory holds one page (all events of one millisecond at most).
   */
  typeEvents(
    gameId: string,
    type: string,
    from: number,
    to: number,
    withData: boolean,
    pageSize?: number,
  ): AsyncGenerator<FunnelEventRow[]>
  /** Every player's value of a profile column (null: none), in pages by player id. */
  playerValues(
    gameId: string,
    column: GroupColumn,
    pageSize?: number,
  ): AsyncGenerator<Array<[string, string | null]>>
}

export function createFunnelStore(db: Kysely<Database>): FunnelStore {
  const page = (gameId: string, type: string, withData: boolean) => {
    const q = db
      .selectFrom('game_events')
      .select(['player_id', 'event_id', 'ts'])
      .where('game_id', '=', gameId)
      .where('event_type', '=', type)
    return withData ? q.select('data') : q.select((eb) => eb.val<string | null>(null).as('data'))
  }
  const toRow = (r: {
    player_id: string
    event_id: string
    ts: number
    data: string | null
  }): FunnelEventRow => ({
    playerId: r.player_id,
    eventId: r.event_id,
    ts: Number(r.ts),
    data: r.data,
  })
  return {
    async *typeEvents(gameId, type, from, to, withData, pageSize = 20_000) {
      let start = from
      while (start <= to) {
        const rows = await page(gameId, type, withData)
          .where('ts', '>=', start)
          .where('ts', '<=', to)
          .orderBy('ts')
          .orderBy('player_id')
          .orderBy('event_id')
          .limit(pageSize)
          .execute()
        if (rows.length < pageSize) {
          if (rows.length) yield rows.map(toRow)
          return
        }
        // A full page: keep its whole milliseconds, the last one is read again by the next page
        // (all of it at once when the page held nothing else).
        const lastTs = Number(rows[rows.length - 1]!.ts)
        if (Number(rows[0]!.ts) === lastTs) {
          const all = await page(gameId, type, withData)
            .where('ts', '=', lastTs)
            .orderBy('player_id')
            .orderBy('event_id')
            .execute()
          yield all.map(toRow)
          start = lastTs + 1
          continue
        }
        yield rows.filter((r) => Number(r.ts) < lastTs).map(toRow)
        start = lastTs
      }
    },

    async *playerValues(gameId, column, pageSize = 20_000) {
      let after: string | null = null
      for (;;) {
        let q = db
          .selectFrom('game_players')
          .select(['player_id', `${column} as value`])
          .where('game_id', '=', gameId)
        if (after !== null) q = q.where('player_id', '>', after)
        const rows = await q.orderBy('player_id').limit(pageSize).execute()
        if (rows.length)
          yield rows.map((r) => [r.player_id, r.value as string | null] as [string, string | null])
        if (rows.length < pageSize) return
        after = rows[rows.length - 1]!.player_id
      }
    },
  }
}
