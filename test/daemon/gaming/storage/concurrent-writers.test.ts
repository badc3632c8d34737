/**
 * Several linkd processes on one PostgreSQL database ingest batches of the same game at once:
 * the fold reads a snapshot and writes absolute values (profiles, player-days, sessions), so
 * without the per-game lock two batches would overwrite each other's updates. Two apps (two
 * pools) send interleaved batches concurrently; every total must equal the sequential result.
 * PostgreSQL only: SQLite has one writer by design (processes wait on its file lock).
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../../support/app.js'
import { gameTables } from '../../../support/game-tables.js'
import { accepted, createGame, send } from '../../../support/gaming.js'
import { createTestDatabase, onPostgres } from '../../../support/postgres.js'
import { prng } from '../../../support/prng.js'

const NOW = Date.parse('2026-11-20T12:00:00.000Z')
const MIN = 60_000
const PLAYERS = 30
const BATCHES = 16
const PER_BATCH = 40

/**
 * Batch b holds events of many players within its own 20 minutes (80 min apart from the next
 * batch's), each player's in a session of its own per batch: the result does not depend on the
 * order the batches are stored in, only on whether each one's updates survive.
 */
function makeBatches() {
  const rand = prng(17)
  const start = NOW - 23 * 60 * MIN
  return Array.from({ length: BATCHES }, (_, b) => ({
    batch_id: randomUUID(),
    batch_timestamp: new Date(NOW).toISOString(),
    events: Array.from({ length: PER_BATCH }, (_, i) => {
      const player = `p${Math.floor(rand() * PLAYERS)}`
      const purchase = rand() < 0.15
      return {
        event_id: randomUUID(),
        event_type: purchase ? 'purchase' : i % 3 ? 'level_start' : 'session_start',
        timestamp: new Date(start + b * 80 * MIN + Math.floor(rand() * 20 * MIN)).toISOString(),
        player_id: player,
        session_id: `${player}-s${b}`,
        platform: 'ios',
        data: purchase
          ? { amount: 1 + Math.floor(rand() * 10), currency: 'USD', country: 'DE' }
          : { level: i, country: 'DE' },
      }
    }),
  }))
}

const batches = makeBatches()
let shared: Awaited<ReturnType<typeof createTestDatabase>> | undefined
const apps: TestApp[] = []

beforeAll(async () => {
  if (!onPostgres) return
  shared = await createTestDatabase()
  const options = {
    databaseUrl: shared.url,
    ingestRateLimitPerGame: 1_000_000,
    ingestRateLimitPerClient: 1_000_000,
  }
  apps.push(await createTestApp(options))
  apps.push(await createTestApp(options, {}, { orgName: 'second-process' }))
  for (const t of apps) t.clock.set(NOW)
})
afterAll(async () => {
  for (const t of apps) await t.close()
  await shared?.drop()
})

it.runIf(onPostgres)(
  'two processes storing batches of one game at once lose no update: the same tables as one after the other',
  async () => {
    const [first, second] = apps as [TestApp, TestApp]
    const game = await createGame(first, { platform: 'ios' })
    const o = { game, orgId: first.orgId }
    // Every batch at once, alternating between the two apps' pools.
    const results = await Promise.all(
      batches.map((b, i) => send(i % 2 ? second : first, b, o).then(accepted)),
    )
    expect(results.reduce((n, r) => n + r.accepted, 0)).toBe(BATCHES * PER_BATCH)

    const reference = await createTestApp({
      ingestRateLimitPerGame: 1_000_000,
      ingestRateLimitPerClient: 1_000_000,
    })
    try {
      reference.clock.set(NOW)
      const alone = await createGame(reference, { platform: 'ios' })
      for (const b of batches) accepted(await send(reference, b, { game: alone, orgId: reference.orgId }))
      const got = await gameTables(first, game)
      const want = await gameTables(reference, alone)
      // The exact totals first (clearer failures), then every row.
      const events = batches.flatMap((b) => b.events)
      const daily = got.daily as Array<{ events: number; sessions: number; revenue_iap_micros: number }>
      expect(daily.reduce((n, d) => n + d.events, 0)).toBe(events.length)
      expect(daily.reduce((n, d) => n + d.sessions, 0)).toBe(
        new Set(events.map((e) => `${e.player_id}\n${e.session_id}`)).size,
      )
      expect(daily.reduce((n, d) => n + d.revenue_iap_micros, 0)).toBe(
        events.reduce((n, e) => n + ((e.data as { amount?: number }).amount ?? 0) * 1_000_000, 0),
      )
      expect(got.totals).toEqual([{ players: new Set(events.map((e) => e.player_id)).size }])
      expect(got.players).toEqual(want.players)
      expect(got.sessions).toEqual(want.sessions)
      expect(got).toEqual(want)
    } finally {
      await reference.close()
    }
  },
)
