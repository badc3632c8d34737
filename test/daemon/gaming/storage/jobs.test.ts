/** Raw retention and compaction jobs: idempotent, recorded, never reviving expired data. */
import { afterEach, beforeEach, expect, it } from 'vitest'
import { createTestApp, type TestApp, count, sqlRows } from '../../../support/app.js'
import { accepted, batch, createGame, event, send } from '../../../support/gaming.js'

let t: TestApp
beforeEach(async () => {
  t = await createTestApp()
})
afterEach(() => t.close())

const DAY = 86_400_000

async function ingestOne(slug: string, sdk: Parameters<typeof send>[2]['game']) {
  const res = await send(t, batch(t, [event(t, { player_id: `${slug}-p` })]), { game: sdk, orgId: t.orgId })
  expect(accepted(res)).toMatchObject({ accepted: 1, duplicates: 0, rejected: 0 })
}

it('raw events and sessions past the raw retention go; aggregates stay; runs are recorded', async () => {
  const short = await createGame(t, { rawRetentionDays: 1 })
  const long = await createGame(t, { rawRetentionDays: 30 })
  await ingestOne('short', short)
  await ingestOne('long', long)
  t.clock.advance(DAY + 1)
  expect(await t.app.linkd.scheduler.runNow('gaming-raw-retention')).toMatchObject({
    ran: true,
    status: 'ok',
    summary: expect.stringMatching(/^1 events, 1 sessions expired/),
  })
  expect(await count(t, 'game_events', "player_id = 'short-p'")).toBe(0)
  expect(await count(t, 'game_sessions', "player_id = 'short-p'")).toBe(0)
  expect(await count(t, 'game_events', "player_id = 'long-p'")).toBe(1)
  expect(await count(t, 'game_daily')).toBe(2)
  expect(await count(t, 'game_players')).toBe(2)
  // Idempotent: a second run finds nothing.
  expect(await t.app.linkd.scheduler.runNow('gaming-raw-retention')).toEqual({ ran: true, status: 'ok' })
  const runs = (await t.app.linkd.scheduler.status()).find((r) => r.name === 'gaming-raw-retention')
  expect(runs?.runCount).toBe(2)
})

it('extending the retention does not revive data the shorter one already expired', async () => {
  const g = await createGame(t, { rawRetentionDays: 1 })
  await ingestOne('g', g)
  t.clock.advance(DAY + 1) // expired, but the job has not run yet
  const res = await t.call('PATCH', `/api/v1/admin/games/${g.id}`, { body: { rawRetentionDays: 30 } })
  expect(res.json()).toMatchObject({ rawRetentionDays: 30 })
  await t.app.linkd.scheduler.runNow('gaming-raw-retention')
  expect(await count(t, 'game_events')).toBe(0)
  // New data is kept for the new 30 days.
  await ingestOne('g2', g)
  t.clock.advance(10 * DAY)
  await t.app.linkd.scheduler.runNow('gaming-raw-retention')
  expect(await count(t, 'game_events')).toBe(1)
})

it('compaction deletes aggregate days past the compacted retention, per game', async () => {
  const g = await createGame(t, { compactedRetentionMonths: 1 })
  const keep = await createGame(t, { compactedRetentionMonths: 12 })
  await ingestOne('g', g)
  await ingestOne('keep', keep)
  t.clock.advance(20 * DAY)
  await t.app.linkd.scheduler.runNow('gaming-compaction')
  expect(await count(t, 'game_daily')).toBe(2)
  t.clock.advance(15 * DAY)
  expect(await t.app.linkd.scheduler.runNow('gaming-compaction')).toMatchObject({ ran: true, status: 'ok' })
  const left = (await sqlRows(t, 'SELECT DISTINCT game_id FROM game_daily')) as { game_id: string }[]
  expect(left).toHaveLength(1)
  const tables = [
    'game_daily_dims',
    'game_day_gaps',
    'game_cohorts',
    'game_cohort_events',
    'game_player_days',
  ]
  for (const table of tables) {
    expect(await count(t, table, 'game_id = ?', left[0]!.game_id), table).toBeGreaterThan(0)
    expect(await count(t, table, 'game_id = ?', left[0]!.game_id), table).toBe(await count(t, table))
  }
})
