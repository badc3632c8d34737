/**
 * Detector state survives a restart: the daemon saves the windows it changed
 * when it stops and loads them when it starts, so a device farm split across a restart is still
 * one farm.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { createTestApp, sqlRows } from '../../../support/app.js'
import { createTestDatabase, onPostgres } from '../../../support/postgres.js'
import { accepted, batch, createGame, event, send } from '../../../support/gaming.js'

const dir = mkdtempSync(join(tmpdir(), 'linkd-fraud-restart-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

it('a farm of 30 players on one IP, 15 before and 15 after a restart, is flagged after it', async () => {
  // Two apps, one after the other, on one database: a file, or a PostgreSQL database of the run.
  const shared = onPostgres ? await createTestDatabase() : undefined
  const databaseUrl = shared?.url ?? `sqlite:${join(dir, 'linkd.db')}`
  const first = await createTestApp({
    databaseUrl,
    ingestRateLimitPerGame: 100_000,
    ingestRateLimitPerClient: 100_000,
  })
  const game = await createGame(first, { modules: { fraud: true } })
  const o = { game, orgId: first.orgId, ip: '203.0.113.77' }
  const players = (from: number) =>
    Array.from({ length: 15 }, (_, i) => event(first, { player_id: `p${from + i}` }))
  expect(accepted(await send(first, batch(first, players(0)), o)).flagged).toBe(0)
  await first.close()

  const second = await createTestApp(
    { databaseUrl, ingestRateLimitPerGame: 100_000, ingestRateLimitPerClient: 100_000 },
    {},
    { orgName: 'restarted' },
  )
  try {
    second.clock.set(first.clock.now() + 60_000)
    const r = accepted(await send(second, batch(second, players(15)), o))
    // 25 players on one IP pass the Flag Device Farms template (0.7): only with the 15 of before.
    expect(r.flagged).toBeGreaterThan(0)
    const [row] = await sqlRows<{ reasons: string }>(
      second,
      "SELECT reasons FROM fraud_events WHERE player_id = 'p29'",
    )
    expect(JSON.parse(row!.reasons).device_farm[0]).toContain('30 players on this IP')
  } finally {
    await second.close()
    await shared?.drop()
  }
})
