/**
 * Fraud events leave with their player and with the raw events: the GDPR
 * deletion (route + job) purges the player's fraud events; the raw retention job deletes them
 * past each game's raw retention, as it does the raw events.
 */
import { afterEach, beforeEach, expect, it } from 'vitest'
import type { GdprDeletion } from '../../../../src/contract/gaming.js'
import { createTestApp, type TestApp, count, sqlRows } from '../../../support/app.js'
import { fraudEvent, gameIdOf, seedFraud } from '../../../support/fraud.js'
import { createGame } from '../../../support/gaming.js'

let t: TestApp
beforeEach(async () => {
  t = await createTestApp()
})
afterEach(() => t.close())

const DAY = 86_400_000

it("a GDPR deletion purges the player's fraud events, in that game only", async () => {
  const game = (await createGame(t, { modules: { fraud: true } })).id
  const other = (await createGame(t, { modules: { fraud: true } })).id
  const gameId = await gameIdOf(t, game)
  const otherId = await gameIdOf(t, other)
  const victim = 'gdpr-fraud-player-91c'
  await seedFraud(t, gameId, [
    fraudEvent(t, gameId, { playerId: victim }),
    fraudEvent(t, gameId, { playerId: victim, status: 'blocked' }),
    fraudEvent(t, gameId, { playerId: 'keeps' }),
  ])
  await seedFraud(t, otherId, [fraudEvent(t, otherId, { playerId: victim })])

  const res = await t.call('POST', '/api/v1/gaming/gdpr/deletions', {
    body: { gameId: game, playerId: victim, reason: 'gdpr_request', confirmation: 'DELETE' },
  })
  expect(res.statusCode, res.body).toBe(202)
  expect(await t.app.linkd.scheduler.runNow('gdpr-deletions')).toMatchObject({ ran: true, status: 'ok' })
  const done = (
    await t.call('GET', `/api/v1/gaming/gdpr/deletions/${res.json<GdprDeletion>().id}`)
  ).json<GdprDeletion>()
  expect(done).toMatchObject({ status: 'completed', purged: { fraudEvents: 2 } })

  const listed = await t.call('GET', `/api/v1/admin/fraud/games/${game}/events`)
  expect(listed.json<{ data: { playerId: string }[] }>().data.map((e) => e.playerId)).toEqual(['keeps'])
  expect(await count(t, 'fraud_events', 'player_id = ?', victim)).toBe(1)
  expect(await count(t, 'fraud_events', 'game_id = ? AND player_id = ?', otherId, victim)).toBe(1)
})

it("raw retention deletes fraud events past each game's raw retention, with the raw events", async () => {
  const short = (await createGame(t, { modules: { fraud: true }, rawRetentionDays: 1 })).id
  const long = (await createGame(t, { modules: { fraud: true }, rawRetentionDays: 30 })).id
  const shortId = await gameIdOf(t, short)
  const longId = await gameIdOf(t, long)
  const start = t.clock.now()
  for (const id of [shortId, longId])
    await seedFraud(t, id, [fraudEvent(t, id, { id: `fev_old_${id}`, receivedAt: start })])
  t.clock.advance(DAY)
  // Exactly one day old: at the cutoff, still kept.
  await seedFraud(t, shortId, [fraudEvent(t, shortId, { id: 'fev_new', receivedAt: t.clock.now() })])
  expect(await t.app.linkd.scheduler.runNow('gaming-raw-retention')).toEqual({ ran: true, status: 'ok' })
  expect(await count(t, 'fraud_events')).toBe(3)

  t.clock.advance(1)
  expect(await t.app.linkd.scheduler.runNow('gaming-raw-retention')).toMatchObject({
    ran: true,
    status: 'ok',
    summary: '0 events, 0 sessions, 1 fraudEvents expired; 0 batch ids pruned',
  })
  const ids = await sqlRows(t, 'SELECT id FROM fraud_events ORDER BY id')
  expect(ids).toEqual([{ id: 'fev_new' }, { id: `fev_old_${longId}` }])
  t.clock.advance(DAY)
  await t.app.linkd.scheduler.runNow('gaming-raw-retention')
  expect(await count(t, 'fraud_events')).toBe(1)
})

it('a backlog larger than one delete chunk (5,000) expires whole', async () => {
  const slug = (await createGame(t, { modules: { fraud: true }, rawRetentionDays: 1 })).id
  const gameId = await gameIdOf(t, slug)
  const old = t.clock.now()
  await seedFraud(
    t,
    gameId,
    Array.from({ length: 5001 }, (_, i) => fraudEvent(t, gameId, { receivedAt: old + (i % 7) })),
  )
  t.clock.advance(2 * DAY)
  expect(await t.app.linkd.scheduler.runNow('gaming-raw-retention')).toMatchObject({
    summary: '0 events, 0 sessions, 5001 fraudEvents expired; 0 batch ids pruned',
  })
  expect(await count(t, 'fraud_events')).toBe(0)
})
