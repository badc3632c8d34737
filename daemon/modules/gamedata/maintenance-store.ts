/**
 * Deletions over the gaming storage layers: raw retention, compaction and the GDPR purge of one
 * player. Kysely (portable); bounded chunks so that a long backlog never holds
 * the single SQLite writer for long.
 */
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.js'
import { chunked as chunkedBy } from '../../db/chunked.js'

const CHUNK = 5000

/** Tables holding rows of one player (the GDPR purge visits each; anonymous totals stay). */
export const PLAYER_TABLES = ['game_events', 'game_sessions', 'game_players', 'game_player_days'] as const
export type PlayerTable = (typeof PLAYER_TABLES)[number]

export function createGamedataMaintenanceStore(db: Kysely<Database>) {
  /** Deletes in chunks by rowid-free keys: repeated bounded deletes until none is left. */
  const chunked = (run: () => Promise<number>) => chunkedBy(CHUNK, run)
  return {
    /** Raw events and sessions (started) before `cutoff` (Unix ms). */
    async deleteRawBefore(gameId: string, cutoff: number): Promise<{ events: number; sessions: number }> {
      const events = await chunked(async () => {
        const ids = await db
          .selectFrom('game_events')
          .select('event_id')
          .where('game_id', '=', gameId)
          .where('ts', '<', cutoff)
          .limit(CHUNK)
          .execute()
        if (!ids.length) return 0
        await db
          .deleteFrom('game_events')
          .where('game_id', '=', gameId)
          .where(
            'event_id',
            'in',
            ids.map((r) => r.event_id),
          )
          .execute()
        return ids.length
      })
      const sessions = Number(
        (
          await db
            .deleteFrom('game_sessions')
            .where('game_id', '=', gameId)
            .where('started_at', '<', cutoff)
            .executeTakeFirst()
        ).numDeletedRows,
      )
      return { events, sessions }
    },

    /** Aggregate rows of days before `cutoffDay` (compacted retention). */
    async deleteAggregatesBefore(gameId: string, cutoffDay: number): Promise<number> {
      let n = 0
      for (const table of [
        'game_daily',
        'game_daily_dims',
        'game_day_gaps',
        'game_player_days',
        'game_acquisition_daily',
        'game_dim_paying_gaps',
      ] as const)
        n += Number(
          (
            await db
              .deleteFrom(table)
              .where('game_id', '=', gameId)
              .where('day', '<', cutoffDay)
              .executeTakeFirst()
          ).numDeletedRows,
        )
      n += Number(
        (
          await db
            .deleteFrom('game_cohorts')
            .where('game_id', '=', gameId)
            .where('install_day', '<', cutoffDay)
            .executeTakeFirst()
        ).numDeletedRows,
      )
      return n
    },

    /** Every row of one player in the per-player layers, in one transaction. Rows removed per table. */
    async purgePlayer(gameId: string, playerId: string): Promise<Record<PlayerTable, number>> {
      return db.transaction().execute(async (trx) => {
        const out = {} as Record<PlayerTable, number>
        for (const table of PLAYER_TABLES)
          out[table] = Number(
            (
              await trx
                .deleteFrom(table)
                .where('game_id', '=', gameId)
                .where('player_id', '=', playerId)
                .executeTakeFirst()
            ).numDeletedRows,
          )
        // The profile count of the game (players explorer, segments) follows.
        if (out.game_players)
          await trx
            .updateTable('game_player_totals')
            .set((eb) => ({ players: eb('players', '-', out.game_players) }))
            .where('game_id', '=', gameId)
            .execute()
        return out
      })
    },
  }
}
export type GamedataMaintenanceStore = ReturnType<typeof createGamedataMaintenanceStore>
