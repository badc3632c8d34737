/**
 * The fraud dashboard after a GDPR purge: the player's fraud events go, and so do the blocks and
 * flags they counted, so that threatsDetected keeps equal to blocked + flagged (it read
 * `threatsDetected 2, blocked 1, flagged 2` after a flagged event's player was erased). The
 * anonymous counters (events analyzed, latency) keep their history.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GameWithSecrets } from '../../../../src/contract/games.js'
import type { FraudDashboard } from '../../../../src/contract/fraud.js'
import type { GdprDeletion } from '../../../../src/contract/gaming.js'
import { count, createTestApp, type TestApp } from '../../../support/app.js'
import { accepted, batch, createGame, event, send } from '../../../support/gaming.js'

let t: TestApp
let game: GameWithSecrets
beforeAll(async () => {
  t = await createTestApp()
  game = await createGame(t, { modules: { fraud: true } })
  const rule = async (body: Record<string, unknown>) => {
    const res = await t.call('POST', `/api/v1/admin/fraud/games/${game.id}/rules`, { body })
    expect(res.statusCode, res.body).toBe(201)
  }
  await rule({ name: 'block villain', action: 'block', field: 'player_id', operator: 'eq', value: 'villain' })
  await rule({ name: 'watch suspects', action: 'flag', field: 'player_id', operator: 'eq', value: 'suspect' })
})
afterAll(() => t.close())

async function dashboard(): Promise<FraudDashboard> {
  const res = await t.call('GET', `/api/v1/admin/fraud/games/${game.id}/dashboard`)
  expect(res.statusCode, res.body).toBe(200)
  return res.json<FraudDashboard>()
}

async function erase(playerId: string): Promise<void> {
  const res = await t.call('POST', '/api/v1/gaming/gdpr/deletions', {
    body: { gameId: game.id, playerId, reason: 'gdpr_request', confirmation: 'DELETE' },
  })
  expect(res.statusCode, res.body).toBe(202)
  expect(await t.app.linkd.scheduler.runNow('gdpr-deletions')).toMatchObject({ ran: true, status: 'ok' })
  const done = await t.call('GET', `/api/v1/gaming/gdpr/deletions/${res.json<GdprDeletion>().id}`)
  expect(done.json<GdprDeletion>().status).toBe('completed')
}

describe('fraud dashboard and GDPR purges', () => {
  it('blocked + flagged stay equal to threatsDetected when a player’s fraud events are purged', async () => {
    const r = accepted(
      await send(
        t,
        batch(t, [
          event(t, { player_id: 'villain' }),
          event(t, { player_id: 'suspect' }),
          event(t, { player_id: 'suspect' }),
          event(t, { player_id: 'bystander' }),
        ]),
        { game, orgId: t.orgId },
      ),
    )
    expect(r).toMatchObject({ accepted: 3, flagged: 2, blocked: 1 })
    const before = await dashboard()
    expect(before).toMatchObject({ eventsAnalyzed: 4, threatsDetected: 3, blocked: 1, flagged: 2 })

    await erase('suspect')
    expect(await count(t, 'fraud_events', 'player_id = ?', 'suspect')).toBe(0)
    const afterSuspect = await dashboard()
    expect(afterSuspect).toMatchObject({ eventsAnalyzed: 4, threatsDetected: 1, blocked: 1, flagged: 0 })
    expect(afterSuspect.avgDetectionLatencyUs).toBe(before.avgDetectionLatencyUs)

    await erase('villain')
    expect(await dashboard()).toMatchObject({ eventsAnalyzed: 4, threatsDetected: 0, blocked: 0, flagged: 0 })
    // A purge of a player without fraud events changes nothing; counters never go below 0.
    await erase('bystander')
    await erase('villain')
    expect(await dashboard()).toMatchObject({ threatsDetected: 0, blocked: 0, flagged: 0, fraudRate: 0 })
  })
})
