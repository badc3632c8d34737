/**
 * Deletions over the gaming storage layers: raw retention, compaction and the GDPR purge of one
 * player. Kysely (portable); bounded chunks so that a long backlog never holds
 * the single SQLite writer for long. On PostgreSQL batches of the game run meanwhile: the purge
 * takes the player's lock (`lockPlayer`: the batches of that player wait, or it waits for them),
 * and every statement runs again when PostgreSQL aborts it on a deadlock with a batch (a delete
 * of old sessions or aggregate rows meeting a batch that updates some of them).
 */
import type { Kysely } from 'kysely'
import type { Database } from '../../../db/schema.js'
import { chunked as chunkedBy } from '../../../db/chunked.js'
import { retryingConflicts } from '../../../db/errors.js'

const CHUNK = 5000

/** Tables holding rows of one player (the GDPR purge visits each; anonymous totals stay). */
export const PLAYER_TABLES = ['game_events', 'game_sessions', 'game_players', 'game_player_days'] as const
export type PlayerTable = (typeof PLAYER_TABLES)[number]

export interface MaintenanceEngine {
  /** Takes a player's lock inside the purge's transaction (PostgreSQL: locks-store-postgres.ts). */
  lockPlayer?(trx: Kysely<Database>, gameId: string, playerId: string): Promise<void>
}

export function createStorageMaintenanceStore(db: Kysely<Database>, engine: MaintenanceEngine = {}) {
  /** Deletes in chunks by rowid-free keys: repeated bounded deletes until none is left. */
  const chunked = (run: () => Promise<number>) => chunkedBy(CHUNK, () => retryingConflicts(run))
  /** One delete statement: its rows removed. */
  const deleted = async (run: () => Promise<{ numDeletedRows: bigint }>) =>
    retryingConflicts(async () => Number((await run()).numDeletedRows))
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
      const sessions = await deleted(() =>
        db
          .deleteFrom('game_sessions')
          .where('game_id', '=', gameId)
          .where('started_at', '<', cutoff)
          .executeTakeFirst(),
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
        n += await deleted(() =>
          db.deleteFrom(table).where('game_id', '=', gameId).where('day', '<', cutoffDay).executeTakeFirst(),
        )
      for (const table of ['game_cohorts', 'game_cohort_dims', 'game_cohort_events'] as const)
        n += await deleted(() =>
          db
            .deleteFrom(table)
            .where('game_id', '=', gameId)
            .where('install_day', '<', cutoffDay)
            .executeTakeFirst(),
        )
      return n
    },

    /**
     * Every row of one player in the per-player layers, in one transaction, no batch of the
     * player in progress meanwhile. Rows removed per table.
     */
    async purgePlayer(gameId: string, playerId: string): Promise<Record<PlayerTable, number>> {
      return retryingConflicts(() =>
        db.transaction().execute(async (trx) => {
          await engine.lockPlayer?.(trx, gameId, playerId)
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
          // The click this player's install claimed stays claimed (one install per click), nameless.
          await trx
            .updateTable('install_click_claims')
            .set({ player_id: '' })
            .where('game_id', '=', gameId)
            .where('player_id', '=', playerId)
            .execute()
          // The profile count of the game (players explorer, segments) follows.
          if (out.game_players)
            await trx
              .updateTable('game_player_totals')
              .set((eb) => ({ players: eb('players', '-', out.game_players) }))
              .where('game_id', '=', gameId)
              .execute()
          return out
        }),
      )
    },
  }
}
export type StorageMaintenanceStore = ReturnType<typeof createStorageMaintenanceStore>
