/** SKAN campaign reports from known postbacks and the postbacks' retention. */
import { count } from '../../../support/app.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CampaignWithReport, SkanPostback } from '../../../../src/contract/skan.js'
import type { PageOf } from '../../../../src/contract/common.js'
import { DAY_MS } from '../../../../daemon/clock.js'
import type { TestApp } from '../../../support/app.js'

import { createCampaign, post, postback40, signed, skanApp } from '../../../support/skan.js'

describe('campaign report', () => {
  let t: TestApp
  let campaignId: string
  beforeAll(async () => {
    const app = await skanApp()
    t = app.t
    const c = await createCampaign(t, app.game, {
      adNetworkId: 'report.skadnetwork',
      conversionSchema: {
        events: { tutorial: 1, level_5: 2, purchase: 4 },
        decodedRevenue: { fine: { '5': 2.5, '7': 10 }, coarse: { high: 20 } },
      },
    })
    campaignId = c.id
    const net = { 'ad-network-id': 'report.skadnetwork' }
    const postbacks: Record<string, string | number | boolean>[] = [
      signed(postback40({ ...net, 'conversion-value': 5 })),
      signed(postback40({ ...net, 'conversion-value': 7, redownload: true })),
      signed(postback40({ ...net, 'coarse-conversion-value': 'high' })),
      signed(postback40({ ...net, 'postback-sequence-index': 1, 'coarse-conversion-value': 'medium' })),
      signed(postback40({ ...net, 'postback-sequence-index': 2, 'coarse-conversion-value': 'high' })),
      // Unsigned: in the totals only.
      postback40({ ...net, 'conversion-value': 7 }),
      // Did not win: no install; its value 1 (tutorial) has no decoded revenue.
      signed(postback40({ ...net, 'conversion-value': 1, 'did-win': false })),
    ]
    for (const p of postbacks) expect((await post(t, p)).statusCode).toBe(201)
  })
  afterAll(() => t.close())

  it('counts verified postbacks only, except the totals; revenue from the decoded values', async () => {
    const res = await t.call('GET', `/api/v1/skan/campaigns/${campaignId}`)
    expect(res.statusCode, res.body).toBe(200)
    const { report, ...campaign } = res.json<CampaignWithReport>()
    expect(campaign.id).toBe(campaignId)
    expect(report).toEqual({
      postbacks: 7,
      verified: 6,
      verifiedShare: 0.8571,
      byWindow: [
        { window: '0-2', postbacks: 5, verified: 4, coarse: { low: 3, medium: 0, high: 1 } },
        { window: '3-7', postbacks: 1, verified: 1, coarse: { low: 0, medium: 1, high: 0 } },
        { window: '8-35', postbacks: 1, verified: 1, coarse: { low: 0, medium: 0, high: 1 } },
      ],
      installs: 3,
      redownloads: 1,
      events: { tutorial: 3, level_5: 1, purchase: 2 },
      coarse: { low: 3, medium: 1, high: 2 },
      estimatedRevenue: 32.5,
    })
  })

  it('a new decodedRevenue changes the estimate; a campaign without postbacks reports zeros', async () => {
    const patched = await t.call('PATCH', `/api/v1/skan/campaigns/${campaignId}`, {
      body: {
        conversionSchema: {
          events: { tutorial: 1, level_5: 2, purchase: 4 },
          decodedRevenue: { fine: { '1': 1 }, coarse: { low: 0.5, high: 3 } },
        },
      },
    })
    expect(patched.statusCode, patched.body).toBe(200)
    const after = await t.call('GET', `/api/v1/skan/campaigns/${campaignId}`)
    // fine 5 and 7 → low band 0.5 each; coarse high 3; fine 1 → 1.
    expect(after.json<CampaignWithReport>().report.estimatedRevenue).toBe(5)

    const empty = await t.call('GET', `/api/v1/skan/campaigns/${campaignId}/postbacks?limit=10&page=1`)
    expect(empty.json<PageOf<SkanPostback>>()).toMatchObject({ total: 7, perPage: 10, hasMore: false })
  })

  it('404 for an unknown campaign or another organization', async () => {
    expect((await t.call('GET', '/api/v1/skan/campaigns/skan_nope')).statusCode).toBe(404)
    const other = await t.createOrg('other')
    const res = await t.call('GET', `/api/v1/skan/campaigns/${campaignId}`, { key: other.ownerKey })
    expect(res.statusCode).toBe(404)
    expect(
      (await t.call('GET', `/api/v1/skan/campaigns/${campaignId}/postbacks`, { key: other.ownerKey }))
        .statusCode,
    ).toBe(404)
  })
})

describe('retention', () => {
  it("the gaming compaction deletes postbacks past the game's compacted retention, and old unmatched ones", async () => {
    const { t, game } = await skanApp()
    try {
      await t.call('PATCH', `/api/v1/admin/games/${game.id}`, { body: { compactedRetentionMonths: 1 } })
      const c = await createCampaign(t, game, { adNetworkId: 'keep.skadnetwork' })
      await post(t, signed(postback40({ 'ad-network-id': 'keep.skadnetwork' })))
      await post(t, signed(postback40({ 'ad-network-id': 'nobody.skadnetwork' })))
      t.clock.advance(40 * DAY_MS)
      await post(t, signed(postback40({ 'ad-network-id': 'keep.skadnetwork' })))
      await post(t, signed(postback40({ 'ad-network-id': 'nobody.skadnetwork' })))
      await t.app.linkd.scheduler.runNow('gaming-compaction')
      expect(await count(t, 'skan_postbacks', 'campaign_id = ?', c.id)).toBe(1)
      // Unmatched postbacks follow the default 12 months: both still there.
      expect(await count(t, 'skan_postbacks', 'campaign_id IS NULL')).toBe(2)
      t.clock.advance(366 * DAY_MS)
      await t.app.linkd.scheduler.runNow('gaming-compaction')
      expect(await count(t, 'skan_postbacks')).toBe(0)
    } finally {
      await t.close()
    }
  })
})
