/**
 * The advisory locks of the gaming writes on PostgreSQL (transaction-level: released at commit or
 * rollback). A batch's fold reads a snapshot of ITS players' rows (profiles, player-days,
 * sessions) and of its event ids, and writes absolute values only into those players' rows; every
 * aggregate write adds counters (ON CONFLICT … DO UPDATE SET x = x + excluded.x). So only batches
 * that share a player (or a batch_id) must run one after the other; the rest may run at once.
 *
 * The decision (docs/operations.md, "Several processes"):
 * - A batch with at most FINE_LOCK_PLAYERS distinct players takes its game's lock SHARED, then,
 *   in one statement and one order (its batch_id's key first, then its players' keys ascending),
 *   an exclusive lock per player and one on its batch_id: batches of other players run in
 *   parallel, two batches sharing a player wait for each other, never deadlock on these locks
 *   (everyone takes game → batch_id → players, players in key order), and two copies of one
 *   batch_id serialize, so the second finds the first's stored response.
 * - A batch with more players takes its game's lock EXCLUSIVE: it runs alone in its game, as every
 *   batch did before. PostgreSQL's shared lock table holds about max_locks_per_transaction (64 by
 *   default) × max_connections entries for every backend together; a 1,000-player batch holding
 *   1,000 locks, a few at once, could fill it ("out of shared memory" for every session). 64 is the
 *   per-transaction share of that table PostgreSQL plans for, so a full pool of batches at the
 *   limit stays within it, and the SDKs' batches (one device: one player) are far below it.
 * - The GDPR purge of a player takes the game's lock shared and the player's lock (lockPlayer).
 *
 * Keys: two-key locks (class, key), never meeting the one-key locks of migrations and jobs. The
 * game's key is hashtext(game id) (the key every version of linkd used), a player's and a
 * batch_id's the first 32 bits of SHA-256(game id, name): two names hashing alike only wait for
 * each other.
 */
import { createHash } from 'node:crypto'
import { query, type Executor } from '../../db/postgres-rows.js'
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
