/**
 * The Gaming Analytics module toggle (`modules.analytics`): every analytics route answers 409
 * while it is off; ingestion keeps folding, so turned back on the reports include the events
 * sent meanwhile.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GameWithSecrets } from '../../../../src/contract/games.js'
import { createTestApp, type TestApp } from '../../../support/app.js'
import { accepted, batch, createGame, event, send } from '../../../support/gaming.js'

let t: TestApp
let game: GameWithSecrets
const routes = [
  'overview',
  'retention',
  'leaderboard',
  'geography',
  'events',
  'export?type=events',
  'revenue',
  'attribution',
  'segments',
  'players',
  'players/alice',
]
const url = (route: string) => `/api/v1/analytics/games/${game.id}/${route}`
const setAnalytics = async (on: boolean) => {
  const res = await t.call('PATCH', `/api/v1/admin/games/${game.id}`, {
    body: { modules: { analytics: on } },
  })
  expect(res.statusCode, res.body).toBe(200)
}

beforeAll(async () => {
  t = await createTestApp({ ingestRateLimitPerGame: 100_000, ingestRateLimitPerClient: 100_000 })
  game = await createGame(t)
  const events = [
    event(t, { event_type: 'app_install', player_id: 'alice', data: { country: 'DE' } }),
    event(t, { event_type: 'purchase', player_id: 'alice', data: { amount: 4.99, currency: 'USD' } }),
  ]
  accepted(await send(t, batch(t, events), { game, orgId: t.orgId }))
})
afterAll(() => t.close())

describe('modules.analytics off', () => {
  it('answers 409 on every analytics route, naming how to turn it on', async () => {
    await setAnalytics(false)
    for (const route of routes) {
      const res = await t.call('GET', url(route))
      expect(res.statusCode, route).toBe(409)
      expect(res.json(), route).toMatchObject({
        error: 'Conflict',
        message: expect.stringContaining(`gaming analytics is off for game ${game.id}`),
      })
      expect(res.json().message).toMatch(/"modules":\{"analytics":true\}/)
    }
  })

  it('another organization still gets 404, not 409', async () => {
    const other = await t.createOrg('other-analytics')
    const res = await t.call('GET', url('overview'), { key: other.ownerKey })
    expect(res.statusCode).toBe(404)
  })

  it('keeps ingesting; turned back on, every route answers with the events sent meanwhile', async () => {
    const meanwhile = [
      event(t, { event_type: 'app_install', player_id: 'bob', session_id: 'b1', data: { country: 'FR' } }),
      event(t, {
        event_type: 'purchase',
        player_id: 'bob',
        session_id: 'b1',
        data: { amount: 10, currency: 'USD' },
      }),
    ]
    accepted(await send(t, batch(t, meanwhile), { game, orgId: t.orgId }))
    await setAnalytics(true)
    for (const route of routes) expect((await t.call('GET', url(route))).statusCode, route).toBe(200)
    const overview = (await t.call('GET', url('overview'))).json()
    expect(overview.dau).toBe(2)
    expect(overview.revenue.total).toBeCloseTo(14.99, 6)
    const geography = (await t.call('GET', url('geography'))).json()
    expect(geography.data.map((r: { country: string }) => r.country).sort()).toEqual(['DE', 'FR'])
    expect((await t.call('GET', url('players/bob'))).statusCode).toBe(200)
  })
})
