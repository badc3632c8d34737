/**
 * One hot game stored by two processes on one PostgreSQL database: batches lock their
 * players, not their game (daemon/modules/gaming/storage/locks-store-postgres.ts), so batches of different
 * players run at once. Whatever runs at once, every table must end as if the batches had been
 * stored one by one: the same batches sent one at a time to a third app on its own database give
 * the reference. PostgreSQL only: SQLite has one writer by design.
 */
import { randomUUID } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import type { GameWithSecrets } from '../../../src/contract/games.js'
import type { GameEventInput, IngestResult } from '../../../src/contract/gaming.js'
import { count, createTestApp, type TestApp } from '../../support/app.js'
import { gameTables } from '../../support/game-tables.js'
import { accepted, createGame, send } from '../../support/gaming.js'
import { postgresOnly } from '../../support/postgres.js'
import { prng } from '../../support/prng.js'
import { createSharedApps, type SharedApps } from '../../support/shared-database.js'

const NOW = Date.parse('2026-11-20T12:00:00.000Z')
const MIN = 60_000
const OPTIONS = { ingestRateLimitPerGame: 1_000_000, ingestRateLimitPerClient: 1_000_000 }

type Batch = { batch_id: string; batch_timestamp: string; events: GameEventInput[] }

/**
 * `count` batches of `perBatch` events over the players `playersOf(b)` gives batch b, spread over
 * the last 20 hours (two UTC days: gaps and cohorts move), with purchases, two countries and two
 * acquisition sources (dims, acquisition, paying gaps): rows every batch of the game shares. The
 * tables do not depend on the order the batches are stored in, only on each one's updates.
 */
function makeBatches(count: number, perBatch: number, playersOf: (b: number) => string[], seed: number) {
  const rand = prng(seed)
  return Array.from({ length: count }, (_, b): Batch => ({
    batch_id: randomUUID(),
    batch_timestamp: new Date(NOW).toISOString(),
    events: Array.from({ length: perBatch }, (_, i) => {
      const players = playersOf(b)
      const player = players[i % players.length]!
      const purchase = rand() < 0.2
      // First-touch fields (country, source) are the player's own: the same whatever arrives first.
      const country = player.length % 2 ? 'DE' : 'FR'
      const source = /[b2]$/.test(player) ? 'adnet' : 'organic'
      return {
        event_id: randomUUID(),
        event_type: purchase ? 'purchase' : i % 4 ? 'level_start' : 'session_start',
        timestamp: new Date(NOW - 20 * 60 * MIN + b * 40 * MIN + Math.floor(rand() * 30 * MIN)).toISOString(),
        player_id: player,
        session_id: `${player}-s${b % 3}`,
        platform: 'ios',
        data: purchase
          ? { amount: 1 + Math.floor(rand() * 10), currency: 'USD', country }
          : { level: i, country, source },
      }
    }),
  }))
}

let shared: SharedApps | undefined
afterEach(async () => {
  await shared?.close()
  shared = undefined
})

/** Two apps on one database, their clocks at NOW, and a game of the first one's organization. */
async function twoProcesses(): Promise<{ apps: [TestApp, TestApp]; game: GameWithSecrets; orgId: string }> {
  shared = await createSharedApps(2, OPTIONS)
  const apps = shared.apps as [TestApp, TestApp]
  for (const t of apps) t.clock.set(NOW)
  return { apps, game: await createGame(apps[0], { platform: 'ios' }), orgId: apps[0].orgId }
}

/** Every batch at once, alternating between the two apps. */
async function sendAtOnce(apps: [TestApp, TestApp], game: GameWithSecrets, orgId: string, batches: Batch[]) {
  return Promise.all(batches.map((b, i) => send(apps[i % 2]!, b, { game, orgId }).then(accepted)))
}

/** The tables and the overview of the same batches stored one by one on a database of their own. */
async function oneByOne(batches: Batch[]) {
  const reference = await createTestApp(OPTIONS)
  try {
    reference.clock.set(NOW)
    const game = await createGame(reference, { platform: 'ios' })
    for (const b of batches) accepted(await send(reference, b, { game, orgId: reference.orgId }))
    return { tables: await gameTables(reference, game), overview: await overviewOf(reference, game) }
  } finally {
    await reference.close()
  }
}

async function overviewOf(t: TestApp, game: GameWithSecrets) {
  const res = await t.call('GET', `/api/v1/analytics/games/${game.id}/overview`)
  expect(res.statusCode, res.body).toBe(200)
  return res.json<Record<string, unknown>>()
}

/** The totals the batches must add up to, computed from the events themselves. */
function expectTotals(tables: Awaited<ReturnType<typeof gameTables>>, batches: Batch[]) {
  const events = batches.flatMap((b) => b.events)
  const daily = tables.daily as Array<{ events: number; revenue_iap_micros: number }>
  expect(daily.reduce((n, d) => n + d.events, 0)).toBe(events.length)
  expect(daily.reduce((n, d) => n + d.revenue_iap_micros, 0)).toBe(
    events.reduce((n, e) => n + ((e.data as { amount?: number }).amount ?? 0) * 1_000_000, 0),
  )
  expect(tables.totals).toEqual([{ players: new Set(events.map((e) => e.player_id)).size }])
}

it('the batches sharing players stored one by one in another order: the same tables', async () => {
  // Batch 4 is the one whose first event of p2 is a purchase, before the events carrying its source.
  const batches = makeBatches(16, 15, (b) => (b % 2 ? ['p1', 'p2', 'p3'] : ['p3', 'p1', 'p2']), 9)
  const reordered = await oneByOne([batches[4]!, ...batches.filter((_, i) => i !== 4)])
  expect(reordered).toEqual(await oneByOne(batches))
})

describe.runIf(postgresOnly())('one hot game, two processes, one PostgreSQL database', () => {
  it('batches of different players stored at once: every table as if stored one by one', async () => {
    const { apps, game, orgId } = await twoProcesses()
    // 24 batches of 2 players each, no player in two batches: none waits for another's locks.
    const batches = makeBatches(24, 20, (b) => [`solo-${b}-a`, `solo-${b}-b`], 5)
    const results = await sendAtOnce(apps, game, orgId, batches)
    expect(results.map((r) => r.accepted)).toEqual(Array(24).fill(20))
    const got = await gameTables(apps[0], game)
    expectTotals(got, batches)
    const want = await oneByOne(batches)
    expect(got.players).toEqual(want.tables.players)
    expect(got.playerDays).toEqual(want.tables.playerDays)
    expect(got).toEqual(want.tables)
    expect(await overviewOf(apps[0], game)).toEqual(want.overview)
  })

  it('batches sharing players stored at once wait for each other: the same tables as one by one', async () => {
    const { apps, game, orgId } = await twoProcesses()
    // 3 players in every batch: each batch waits for the ones holding them.
    const batches = makeBatches(16, 15, (b) => (b % 2 ? ['p1', 'p2', 'p3'] : ['p3', 'p1', 'p2']), 9)
    await sendAtOnce(apps, game, orgId, batches)
    const got = await gameTables(apps[0], game)
    expectTotals(got, batches)
    const want = await oneByOne(batches)
    expect(got).toEqual(want.tables)
    expect(await overviewOf(apps[0], game)).toEqual(want.overview)
  })

  it('one event id in two batches of different players at once is stored and counted once', async () => {
    const { apps, game, orgId } = await twoProcesses()
    const PAIRS = 12
    const pairs = Array.from({ length: PAIRS }, (_, i) => {
      const [x, y] = makeBatches(2, 5, (b) => [`twin-${i}-${b}`], 30 + i)
      y!.events[2]!.event_id = x!.events[3]!.event_id
      return [x!, y!] as const
    })
    const answers = await Promise.all(
      pairs.map(([x, y]) =>
        Promise.all([send(apps[0], x, { game, orgId }), send(apps[1], y, { game, orgId })]).then((rs) =>
          rs.map(accepted),
        ),
      ),
    )
    for (const [x, y] of answers as Array<[IngestResult, IngestResult]>) {
      expect(x.accepted + y.accepted).toBe(9)
      expect(x.duplicates + y.duplicates).toBe(1)
    }
    const tables = await gameTables(apps[0], game)
    const stored = (tables.daily as Array<{ events: number }>).reduce((n, d) => n + d.events, 0)
    expect(stored).toBe(PAIRS * 9)
    const profiles = tables.players as Array<{ event_count: number }>
    expect(profiles.reduce((n, p) => n + p.event_count, 0)).toBe(PAIRS * 9)
    expect(await count(apps[0], 'game_events')).toBe(PAIRS * 9)
  })

  it('one batch_id sent to both processes at once is stored once and both get its answer', async () => {
    const { apps, game, orgId } = await twoProcesses()
    const batches = makeBatches(8, 10, (b) => [`again-${b}`], 77)
    const answers = await Promise.all(
      batches.map((b) =>
        Promise.all([send(apps[0], b, { game, orgId }), send(apps[1], b, { game, orgId })]).then((rs) =>
          rs.map(accepted),
        ),
      ),
    )
    for (const [first, second] of answers as Array<[IngestResult, IngestResult]>) {
      expect(second).toEqual(first)
      expect(first).toMatchObject({ accepted: 10, duplicates: 0 })
    }
    expect(await count(apps[0], 'game_batches')).toBe(8)
    expect(await count(apps[1], 'game_events')).toBe(80)
    expectTotals(await gameTables(apps[0], game), batches)
  })
})
