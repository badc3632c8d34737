/**
 * What a game's aggregate, profile and session tables hold, in a stable order and without the
 * game's id (each database has its own game): two databases that stored the same batches, one at
 * a time or at once through several processes, must hold the same.
 */
import type { GameWithSecrets } from '../../src/contract/games.js'
import { sqlRows, type TestApp } from './app.js'
import { gameIdOf } from './fraud.js'

export async function gameTables(t: TestApp, game: GameWithSecrets) {
  const id = await gameIdOf(t, game.id)
  const rows = async (sql: string) => (await sqlRows(t, sql, id)).map(({ game_id: _, ...row }) => row)
  return {
    daily: await rows('SELECT * FROM game_daily WHERE game_id = ? ORDER BY day'),
    dims: await rows(
      `SELECT * FROM game_daily_dims WHERE game_id = ?
         AND (players <> 0 OR new_players <> 0 OR paying_players <> 0 OR events <> 0 OR sessions <> 0)
       ORDER BY day, dim, value`,
    ),
    gaps: await rows(
      'SELECT kind, day, prev_day, players FROM game_day_gaps WHERE game_id = ? AND players <> 0 ORDER BY kind, day, prev_day',
    ),
    cohorts: await rows(
      'SELECT install_day, day_offset, players FROM game_cohorts WHERE game_id = ? AND players <> 0 ORDER BY install_day, day_offset',
    ),
    cohortDims: await rows(
      'SELECT dim, install_day, day_offset, value, players FROM game_cohort_dims WHERE game_id = ? AND players <> 0 ORDER BY dim, install_day, day_offset, value',
    ),
    cohortEvents: await rows(
      `SELECT event_type, dim, install_day, day_offset, value, players FROM game_cohort_events
         WHERE game_id = ? AND players <> 0 ORDER BY event_type, dim, install_day, day_offset, value`,
    ),
    acquisition: await rows(
      `SELECT * FROM game_acquisition_daily WHERE game_id = ?
         AND (cost_micros <> 0 OR commission_micros <> 0 OR conversions <> 0) ORDER BY day, dim, value`,
    ),
    dimPayingGaps: await rows(
      'SELECT dim, value, day, prev_day, players FROM game_dim_paying_gaps WHERE game_id = ? AND players <> 0 ORDER BY dim, value, day, prev_day',
    ),
    playerDays: await rows(
      'SELECT player_id, day, install_day, events, revenue_micros, event_types FROM game_player_days WHERE game_id = ? ORDER BY player_id, day',
    ),
    players: await rows(
      `SELECT player_id, first_seen_at, install_day, last_active_at, session_count, event_count, transactions,
         revenue_total_micros, first_purchase_at FROM game_players WHERE game_id = ? ORDER BY player_id`,
    ),
    totals: await rows('SELECT players FROM game_player_totals WHERE game_id = ?'),
    sessions: await rows(
      'SELECT player_id, session_id, started_at, last_event_at, events FROM game_sessions WHERE game_id = ? ORDER BY player_id, session_id, started_at',
    ),
  }
}
