/**
 * The advisory locks of the gaming writes on PostgreSQL (transaction-level). A batch locks its
 * game SHARED, then its batch_id and its players in key order, so only batches sharing a player
 * wait; beyond FINE_LOCK_PLAYERS it locks the game EXCLUSIVE. Why:
 * docs/decisions/gaming-batch-locks.md. Two-key locks (class, key) never meet migrations' and jobs'.
 */
import { createHash } from 'node:crypto'
import { query, type Executor } from '../../../db/postgres-rows.js'
import type { BatchLocks } from './types.js'

/** The class of the game locks: "game". */
export const GAME_BATCH_LOCK = 0x6761_6d65
/** The class of the player locks: "play". */
export const PLAYER_LOCK = 0x706c_6179
/** The class of the batch_id locks: "btch". */
export const BATCH_ID_LOCK = 0x6274_6368
/** Batches with more distinct players than this take their game's lock exclusively. */
export const FINE_LOCK_PLAYERS = 64

/** The second key of a player's (or a batch_id's) lock in its game. */
export function lockKey(gameId: string, name: string): number {
  return createHash('sha256').update(`${gameId}\n${name}`).digest().readInt32BE(0)
}

const SQL = {
  game: 'SELECT pg_advisory_xact_lock($1, hashtext($2))',
  gameShared: 'SELECT pg_advisory_xact_lock_shared($1, hashtext($2))',
  // unnest yields the rows in array order, and the aggregate locks them in that order.
  keys: 'SELECT count(pg_advisory_xact_lock(k.class, k.key)) FROM unnest($1::int4[], $2::int4[]) AS k(class, key)',
}

/**
 * Takes a batch's locks inside its transaction (see above). Without `scope`, or with more than
 * FINE_LOCK_PLAYERS players: the game's lock, exclusive. Returns which way it locked.
 */
export async function lockBatch(
  trx: Executor,
  gameId: string,
  scope: BatchLocks | undefined,
): Promise<'game' | 'players'> {
  const players = new Set(scope?.playerIds)
  if (!scope || players.size > FINE_LOCK_PLAYERS) {
    await query(trx, SQL.game, [GAME_BATCH_LOCK, gameId])
    return 'game'
  }
  await query(trx, SQL.gameShared, [GAME_BATCH_LOCK, gameId])
  const keys = [...new Set([...players].map((p) => lockKey(gameId, p)))].sort((a, b) => a - b)
  await query(trx, SQL.keys, [
    [BATCH_ID_LOCK, ...keys.map(() => PLAYER_LOCK)],
    [lockKey(gameId, scope.batchId), ...keys],
  ])
  return 'players'
}

/** The GDPR purge's locks: its game's lock shared, then the player's. */
export async function lockPlayer(trx: Executor, gameId: string, playerId: string): Promise<void> {
  await query(trx, SQL.gameShared, [GAME_BATCH_LOCK, gameId])
  await query(trx, SQL.keys, [[PLAYER_LOCK], [lockKey(gameId, playerId)]])
}
