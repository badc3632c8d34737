/**
 * Reads of the retention breakdowns (docs/decisions/retention-reads.md): cohorts per acquisition
 * value from game_cohort_dims; players back with one event type from the player-days of the
 * cohorts, one install day per query (the cohort index (game_id, install_day, day) reads exactly
 * the days asked).
 */
import { sql, type Kysely } from 'kysely'
import type { Database } from '../../../db/schema.js'
import type { CohortCell } from './breakdowns-store.js'
import { CUSTOM_BIT, TYPE_BIT, holdsName, type GroupColumn } from './types.js'

/** A cohort cell of one acquisition value ('' for players without one). */
export interface GroupCohortCell extends CohortCell {
  value: string
}

export function retentionReads(db: Kysely<Database>) {
  return {
    /** Cohort cells per value of `dim` of the install days in [start, end] at the given offsets. */
    async cohortDimCells(
      gameId: string,
      dim: string,
      start: number,
      end: number,
      offsets: number[],
    ): Promise<GroupCohortCell[]> {
      const rows = await db
        .selectFrom('game_cohort_dims')
        .select(['install_day', 'day_offset', 'value', 'players'])
        .where('game_id', '=', gameId)
        .where('dim', '=', dim)
        .where('install_day', '>=', start)
        .where('install_day', '<=', end)
        .where('day_offset', 'in', offsets)
        .execute()
      return rows.map((r) => ({
        installDay: Number(r.install_day),
        dayOffset: Number(r.day_offset),
        value: r.value,
        players: Number(r.players),
      }))
    },

    /**
     * Players of one install day who sent `eventType` on the day `offset` days after it, per offset
     * (and per value of `column`, '' for none, when given). A custom name is looked up in the days'
     * custom_events (days stored before they were kept hold none).
     */
    async returnCells(
      gameId: string,
      installDay: number,
      offsets: number[],
      eventType: string,
      column: GroupColumn | null,
    ): Promise<GroupCohortCell[]> {
      const bit = 2 ** (TYPE_BIT.get(eventType) ?? CUSTOM_BIT)
      let q = db
        .selectFrom('game_player_days as d')
        .where('d.game_id', '=', gameId)
        .where('d.install_day', '=', installDay)
        .where(
          'd.day',
          'in',
          offsets.map((n) => installDay + n),
        )
        .where(sql<boolean>`(d.event_types / ${bit}) % 2 = 1`)
      if (column)
        q = q.innerJoin('game_players as p', (j) =>
          j.onRef('p.game_id', '=', 'd.game_id').onRef('p.player_id', '=', 'd.player_id'),
        )
      const valueOf = column ? sql<string>`COALESCE(${sql.ref(`p.${column}`)}, '')` : sql<string>`''`
      const cells = new Map<string, GroupCohortCell>()
      const add = (day: number, value: string, n: number) => {
        const k = `${day}\n${value}`
        const cell = cells.get(k)
        if (cell) cell.players += n
        else cells.set(k, { installDay, dayOffset: day - installDay, value, players: n })
      }
      if (TYPE_BIT.has(eventType)) {
        const rows = await q
          .select(['d.day', valueOf.as('value'), (eb) => eb.fn.countAll<number>().as('n')])
          // PostgreSQL refuses a constant in GROUP BY: the value only when grouped by a column.
          .groupBy(column ? ['d.day', valueOf] : ['d.day'])
          .execute()
        for (const r of rows) add(Number(r.day), r.value, Number(r.n))
      } else {
        const rows = await q.select(['d.day', valueOf.as('value'), 'd.custom_events']).execute()
        for (const r of rows) if (holdsName(r.custom_events, eventType)) add(Number(r.day), r.value, 1)
      }
      return [...cells.values()]
    },
  }
}
