/**
 * The locks behind one hot game on PostgreSQL (daemon/modules/gaming/storage/locks-store-postgres.ts), seen
 * from outside: a raw client holds a player's lock (or the game's) and the apps' batches wait or
 * not; a batch that meets another's new event id runs again and records its fraud findings once;
 * a GDPR purge and batches of its player at once. PostgreSQL only.
 */
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterEach, describe, expect, it } from 'vitest'
import type { GameWithSecrets } from '../../../src/contract/games.js'
import {
  GAME_BATCH_LOCK,
  PLAYER_LOCK,
  FINE_LOCK_PLAYERS,
  lockKey,
} from '../../../daemon/modules/gaming/storage/locks-store-postgres.js'
import { count, sqlRows, type TestApp } from '../../support/app.js'
import { gameIdOf } from '../../support/fraud.js'
import { accepted, batch, createGame, event, send } from '../../support/gaming.js'
import { postgresOnly } from '../../support/postgres.js'
import { createSharedApps, eventually, type SharedApps } from '../../support/shared-database.js'

let shared: SharedApps | undefined
let raw: pg.Client | undefined
afterEach(async () => {
  await raw?.end()
  raw = undefined
  await shared?.close()
  shared = undefined
})

async function setUp(gameBody: Record<string, unknown> = {}) {
  shared = await createSharedApps(2, {
    ingestRateLimitPerGame: 1_000_000,
    ingestRateLimitPerClient: 1_000_000,
  })
  const [a, b] = shared.apps as [TestApp, TestApp]
  const game = await createGame(a, gameBody)
  raw = new pg.Client({ connectionString: shared.database.url })
  await raw.connect()
  return { a, b, game, gameId: await gameIdOf(a, game.id), client: raw }
}

/** A batch of `players` (one event each), sent as `game`. */
const sendFor = (t: TestApp, game: GameWithSecrets, orgId: string, players: string[]) =>
  send(
    t,
    batch(
      t,
      players.map((p) => event(t, { player_id: p, session_id: `${p}-s` })),
    ),
    { game, orgId },
  )

/** Whether a session other than `client`'s waits for a lock (advisory: of `lockClass`, `key`). */
async function someoneWaits(
  client: pg.Client,
  lock: { type: 'advisory'; class: number; key: number } | 'transactionid',
) {
  const filter =
    lock === 'transactionid'
      ? `locktype = 'transactionid'`
      : `locktype = 'advisory' AND objsubid = 2 AND classid::int8 = ${lock.class} AND objid::int8 = ${lock.key >>> 0}`
  const r = await client.query(
    `SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND pid <> pg_backend_pid() AND ${filter}`,
  )
  return r.rows[0].n > 0
}

/** The numbers a one-column query of the apps' database gives, in order. */
async function numbers(t: TestApp, text: string, ...args: unknown[]): Promise<number[]> {
  return (await sqlRows<Record<string, unknown>>(t, text, ...args)).map((row) =>
    Number(Object.values(row)[0]),
  )
}

/** A promise and whether it has settled yet. */
function tracked<T>(promise: Promise<T>) {
  const state = { settled: false, promise }
  void promise.finally(() => (state.settled = true))
  return state
}

describe.runIf(postgresOnly())('the locks of one hot game on PostgreSQL', () => {
  it("a batch of player A runs while player B's lock is held; B's batch waits for it", async () => {
    const { a, b, game, gameId, client } = await setUp()
    const key = lockKey(gameId, 'player-b')
    await client.query('SELECT pg_advisory_lock($1, $2)', [PLAYER_LOCK, key])
    // Through the other process too: the lock is in the database, not in a process.
    expect(accepted(await sendFor(b, game, a.orgId, ['player-a'])).accepted).toBe(1)
    const waiting = tracked(sendFor(b, game, a.orgId, ['player-a2', 'player-b']))
    await eventually(
      () => someoneWaits(client, { type: 'advisory', class: PLAYER_LOCK, key }),
      "B's batch waits",
    )
    expect(waiting.settled).toBe(false)
    expect(accepted(await sendFor(a, game, a.orgId, ['player-c'])).accepted).toBe(1)
    await client.query('SELECT pg_advisory_unlock($1, $2)', [PLAYER_LOCK, key])
    expect(accepted(await waiting.promise).accepted).toBe(2)
    expect(await count(a, 'game_players')).toBe(4)
  })

  it(`a batch of more than ${FINE_LOCK_PLAYERS} players takes the whole game; smaller ones share it`, async () => {
    const { a, game, gameId, client } = await setUp()
    await client.query('SELECT pg_advisory_lock_shared($1, hashtext($2))', [GAME_BATCH_LOCK, gameId])
    // A small batch takes the game's lock shared: it passes.
    expect(accepted(await sendFor(a, game, a.orgId, ['small-1', 'small-2'])).accepted).toBe(2)
    const many = Array.from({ length: FINE_LOCK_PLAYERS + 1 }, (_, i) => `many-${i}`)
    const big = tracked(sendFor(a, game, a.orgId, many))
    await eventually(async () => {
      const r = await client.query(
        `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND mode = 'ExclusiveLock'
           AND objsubid = 2 AND classid::int8 = $1`,
        [GAME_BATCH_LOCK],
      )
      return r.rows[0].n > 0
    }, 'the big batch waits for the game')
    expect(big.settled).toBe(false)
    await client.query('SELECT pg_advisory_unlock_shared($1, hashtext($2))', [GAME_BATCH_LOCK, gameId])
    expect(accepted(await big.promise).accepted).toBe(FINE_LOCK_PLAYERS + 1)
  })

  it('a batch meeting a concurrent new event id runs again: the event is stored and counted once', async () => {
    const { a, game, gameId, client } = await setUp()
    const sharedId = randomUUID()
    const events = ['one', 'two', 'three'].map((p) => event(a, { player_id: `twin-${p}`, session_id: p }))
    events[1]!.event_id = sharedId
    // Another transaction stores the event id (of another player) and has not committed yet.
    await client.query('BEGIN')
    await client.query(
      `INSERT INTO game_events (game_id, event_id, event_type, player_id, platform, ts, received_at, batch_id, verdict)
       VALUES ($1, $2, 'level_start', 'someone-else', 'ios', $3, $3, 'elsewhere', 'accept')`,
      [gameId, sharedId, a.clock.now()],
    )
    const pending = tracked(send(a, batch(a, events), { game, orgId: a.orgId }))
    await eventually(() => someoneWaits(client, 'transactionid'), 'the batch waits on the event id')
    expect(pending.settled).toBe(false)
    await client.query('COMMIT')
    expect(accepted(await pending.promise)).toMatchObject({ accepted: 2, duplicates: 1 })
    expect(await numbers(a, 'SELECT events FROM game_daily WHERE game_id = ?', gameId)).toEqual([2])
    expect(await count(a, 'game_events', 'player_id = ?', 'someone-else')).toBe(1)
    expect(await count(a, 'game_players')).toBe(2)
  })

  it('a batch chosen as a deadlock victim runs again and records its fraud findings once', async () => {
    const { a, game, gameId, client } = await setUp({ modules: { fraud: true } })
    const rule = await a.call('POST', `/api/v1/admin/fraud/games/${game.id}/rules`, {
      body: { name: 'watch all', action: 'flag', field: 'risk', operator: 'gte', value: 0 },
    })
    expect(rule.statusCode, rule.body).toBe(201)
    accepted(await sendFor(a, game, a.orgId, ['earlier'])) // today's fraud_daily row exists
    // The other transaction holds the batch_id's record row, and waits for the fraud_daily row
    // the batch updated just before it: a deadlock the batch's session detects first (the other
    // one's deadlock_timeout is longer), so the batch is the one PostgreSQL aborts.
    const body = batch(
      a,
      ['x', 'y', 'z'].map((p) => event(a, { player_id: `victim-${p}`, session_id: p })),
    )
    await client.query(`SET deadlock_timeout = '60s'`)
    await client.query('BEGIN')
    await client.query(
      `INSERT INTO game_batches (game_id, batch_id, response, received_at) VALUES ($1, $2, '{}', $3)`,
      [gameId, body.batch_id, a.clock.now()],
    )
    const pending = tracked(send(a, body, { game, orgId: a.orgId }))
    await eventually(() => someoneWaits(client, 'transactionid'), 'the batch waits on its record row')
    await client.query('UPDATE fraud_daily SET analyzed = analyzed WHERE game_id = $1', [gameId])
    await client.query('ROLLBACK')
    expect(accepted(await pending.promise)).toMatchObject({ accepted: 3, flagged: 3 })
    expect(await numbers(a, 'SELECT analyzed FROM fraud_daily WHERE game_id = ?', gameId)).toEqual([4])
    expect(await count(a, 'fraud_events', 'game_id = ?', gameId)).toBe(4)
    expect(await count(a, 'game_events')).toBe(4)
  })

  it('a GDPR purge while batches of the player arrive: no error; only the batches after it stay', async () => {
    const { a, b, game, gameId, client } = await setUp()
    const PLAYER = 'purged-player'
    accepted(await sendFor(a, game, a.orgId, [PLAYER, 'bystander']))
    // A batch of the player waits for its lock, then the purge behind it; then more batches.
    const key = lockKey(gameId, PLAYER)
    const waiters = async () => {
      const r = await client.query(
        `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
           AND objsubid = 2 AND classid::int8 = $1 AND objid::int8 = $2`,
        [PLAYER_LOCK, key >>> 0],
      )
      return r.rows[0].n as number
    }
    await client.query('SELECT pg_advisory_lock($1, $2)', [PLAYER_LOCK, key])
    const before = sendFor(b, game, a.orgId, [PLAYER])
    await eventually(async () => (await waiters()) === 1, 'a batch waits for the player')
    const purge = tracked(a.app.linkd.services.gaming.storage.purgePlayer(gameId, PLAYER))
    await eventually(async () => (await waiters()) === 2, 'the purge waits behind it')
    const after = Array.from({ length: 6 }, (_, i) => {
      const t = i % 2 ? a : b
      return batch(t, [event(t, { player_id: PLAYER, session_id: 'later' })])
    })
    const sent = after.map((body, i) => send(i % 2 ? a : b, body, { game, orgId: a.orgId }))
    await client.query('SELECT pg_advisory_unlock($1, $2)', [PLAYER_LOCK, key])
    for (const r of [await before, ...(await Promise.all(sent))]) expect(accepted(r).accepted).toBe(1)
    expect(await purge.promise).toMatchObject({ game_players: 1, game_events: 2 })
    // The player exists again, made of the batches after the purge only.
    const left = await sqlRows<{ batch_id: string }>(
      a,
      'SELECT batch_id FROM game_events WHERE game_id = ? AND player_id = ? ORDER BY batch_id',
      gameId,
      PLAYER,
    )
    expect(left.map((r) => r.batch_id)).toEqual(after.map((body) => body.batch_id).sort())
    const ofPlayer = 'WHERE game_id = ? AND player_id = ?'
    expect(await numbers(a, `SELECT event_count FROM game_players ${ofPlayer}`, gameId, PLAYER)).toEqual([
      after.length,
    ])
    expect(await numbers(a, `SELECT SUM(events) FROM game_player_days ${ofPlayer}`, gameId, PLAYER)).toEqual([
      after.length,
    ])
    expect(await numbers(a, 'SELECT players FROM game_player_totals WHERE game_id = ?', gameId)).toEqual([2])
  })
})
