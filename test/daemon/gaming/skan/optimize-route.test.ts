/**
 * POST /api/v1/skan/campaigns/:campaignId/optimize on history sent through the
 * real ingestion: 422 under 100 installs, a proposal the campaigns' own validation accepts,
 * skan:read proposes, apply=true needs skan:write and replaces the schema, other orgs get 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GameWithSecrets } from '../../../../src/contract/games.js'
import type { SkanCampaign } from '../../../../src/contract/skan.js'
import type { OptimizeResult } from '../../../../src/contract/skan-optimize.js'
import { createTestApp, type TestApp } from '../../../support/app.js'
import { createGame } from '../../../support/gaming.js'
import { sendHistory, windowsOver, type HistoryPlayer } from '../../../support/skan-history.js'

let t: TestApp
let game: GameWithSecrets
let campaign: SkanCampaign
const url = (id = campaign.id, query = '') => `/api/v1/skan/campaigns/${id}/optimize${query}`

// 99 installs: 40 payers of 1..40 (all won a battle), 59 free players (a third completed the tutorial).
const players: HistoryPlayer[] = [
  ...Array.from({ length: 40 }, (_, i) => ({ id: `payer-${i}`, revenue: i + 1, events: ['battle_won'] })),
  ...Array.from({ length: 59 }, (_, i) => ({
    id: `free-${i}`,
    events: i % 3 === 0 ? ['tutorial_complete'] : ['level_start'],
  })),
]

beforeAll(async () => {
  t = await createTestApp({ ingestRateLimitPerGame: 100_000, ingestRateLimitPerClient: 100_000 })
  game = await createGame(t, { modules: { skan: true } })
  const res = await t.call('POST', `/api/v1/skan/games/${game.id}/campaigns`, {
    body: {
      name: 'Optimized',
      adNetworkId: 'net.skadnetwork',
      lockWindowHours: 48,
      conversionSchema: { events: { tutorial_complete: 1 }, decodedRevenue: { fine: { '1': 2 } } },
    },
  })
  expect(res.statusCode, res.body).toBe(201)
  campaign = res.json<SkanCampaign>()
  await sendHistory(t, { game, orgId: t.orgId }, players)
  windowsOver(t)
}, 60_000)
afterAll(() => t.close())

describe('optimize', () => {
  it('99 installs: 422 saying there is too little history', async () => {
    const res = await t.call('POST', url())
    expect(res.statusCode, res.body).toBe(422)
    expect(res.json()).toMatchObject({
      error: 'Unprocessable',
      message: expect.stringMatching(/99 installs .*at least 100 needed/),
    })
  })

  it('100 installs: a proposal from the history, which the campaign schema rules accept', async () => {
    // One more install today: it counts once its window is over.
    await sendHistory(t, { game, orgId: t.orgId }, [{ id: 'late', revenue: 5 }])
    expect((await t.call('POST', url())).statusCode).toBe(422)
    windowsOver(t)
    const res = await t.call('POST', url())
    expect(res.statusCode, res.body).toBe(200)
    const r = res.json<OptimizeResult>()
    expect(r).toMatchObject({
      campaignId: campaign.id,
      currency: 'USD',
      applied: false,
      installs: 100,
      payers: 41,
    })
    expect(r.keyEvents.map((e) => e.event)).toEqual(['battle_won'])
    // 41 payers → 4 payer buckets of about 10, starting at the payers of rank 0, 10, 20 and 30
    // (1..40 plus a second 5); buckets 0-4 take 3 bits above the event bit.
    expect(r.buckets.map((b) => b.revenueRange.min)).toEqual([0, 1, 10, 20, 30])
    expect(r.proposed).toMatchObject({
      events: { battle_won: 1, revenue_bucket_1: 2, revenue_bucket_2: 4, revenue_bucket_4: 8 },
      lockWindow: 48,
    })
    expect(r.expectedError.revenue).toBe(825) // 1 + … + 40, and the late payer's 5
    // The current schema: tutorial players decode to 2, nobody else to anything.
    expect(r.currentError).toMatchObject({ revenue: 825, estimatedRevenue: 40 })
    // Nothing applied: the campaign keeps its schema.
    const list = await t.call('GET', `/api/v1/skan/games/${game.id}/campaigns`)
    expect(list.json<{ data: SkanCampaign[] }>().data[0]!.conversionSchema.events).toEqual({
      tutorial_complete: 1,
    })
    // The proposal is a schema the campaign's own PATCH accepts as it is.
    const patched = await t.call('PATCH', `/api/v1/skan/campaigns/${campaign.id}`, {
      body: { conversionSchema: r.proposed },
    })
    expect(patched.statusCode, patched.body).toBe(200)
    await t.call('PATCH', `/api/v1/skan/campaigns/${campaign.id}`, {
      body: { conversionSchema: r.current },
    })
  })

  it('skan:read proposes; apply=true needs skan:write (403) and then replaces the schema', async () => {
    const reader = await t.createKey({ permissions: ['skan:read'] })
    const proposed = await t.call('POST', url(), { key: reader.key })
    expect(proposed.statusCode, proposed.body).toBe(200)
    const refused = await t.call('POST', url(campaign.id, '?apply=true'), { key: reader.key })
    expect(refused.statusCode).toBe(403)
    expect(refused.json()).toMatchObject({ error: 'Forbidden', message: expect.stringMatching(/skan:write/) })

    const writer = await t.createKey({ permissions: ['skan:read', 'skan:write'] })
    const applied = await t.call('POST', url(campaign.id, '?apply=true'), { key: writer.key })
    expect(applied.statusCode, applied.body).toBe(200)
    const r = applied.json<OptimizeResult>()
    expect(r.applied).toBe(true)
    const list = await t.call('GET', `/api/v1/skan/games/${game.id}/campaigns`)
    const stored = list.json<{ data: SkanCampaign[] }>().data[0]!.conversionSchema
    expect(stored).toEqual(r.proposed)
    expect(stored.decodedRevenue?.fine?.['3']).toBe(r.buckets[1]!.decodedRevenue)
  })

  it("another organization's campaign and an unknown one: 404", async () => {
    const other = await t.createOrg('other')
    const res = await t.call('POST', url(), { key: other.ownerKey })
    expect(res.statusCode).toBe(404)
    expect((await t.call('POST', url('skan_nope'))).statusCode).toBe(404)
  })

  it('a game with SKAN turned off: 409, like the other campaign routes', async () => {
    const off = await t.call('PATCH', `/api/v1/admin/games/${game.id}`, {
      body: { modules: { skan: false } },
    })
    expect(off.statusCode, off.body).toBe(200)
    expect((await t.call('POST', url())).statusCode).toBe(409)
    await t.call('PATCH', `/api/v1/admin/games/${game.id}`, { body: { modules: { skan: true } } })
    expect((await t.call('POST', url())).statusCode).toBe(200)
  })

  it('apply must be a boolean: 400 naming it', async () => {
    const res = await t.call('POST', url(campaign.id, '?apply=maybe'))
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ details: [{ field: 'apply' }] })
  })
})
