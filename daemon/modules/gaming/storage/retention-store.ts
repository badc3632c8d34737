/**
 * Reads of the retention breakdowns (docs/decisions/retention-reads.md): cohorts per acquisition
 * value from game_cohort_dims; players back with one event type from game_cohort_events, overall
 * or per value (one index range: game, type, dim, install days).
 */
import type { Kysely } from 'kysely'
import type { Database } from '../../../db/schema.js'
import type { CohortCell } from './breakdowns-store.js'

/** A cohort cell of one acquisition value ('' for players without one). */
export interface GroupCohortCell extends CohortCell {
  value: string
}

export function retentionReads(db: Kysely<Database>) {
  const cells = (rows: Array<{ install_day: number; day_offset: number; value: string; players: number }>) =>
    rows.map((r): GroupCohortCell => ({
      installDay: Number(r.install_day),
      dayOffset: Number(r.day_offset),
      value: r.value,
      players: Number(r.players),
    }))
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
      return cells(rows)
    },

    /**
     * Players of the install days in [start, end] who sent `eventType` (a named type or a custom
     * name) `offset` days after install, at the given offsets; dim '' for all players (value ''),
     * else per value of that grouping.
     */
    async returnCells(
      gameId: string,
      eventType: string,
      dim: string,
      start: number,
      end: number,
      offsets: number[],
    ): Promise<GroupCohortCell[]> {
      const rows = await db
        .selectFrom('game_cohort_events')
        .select(['install_day', 'day_offset', 'value', 'players'])
        .where('game_id', '=', gameId)
        .where('event_type', '=', eventType)
        .where('dim', '=', dim)
        .where('install_day', '>=', start)
        .where('install_day', '<=', end)
        .where('day_offset', 'in', offsets)
        .execute()
      return cells(rows)
    },
  }
}
