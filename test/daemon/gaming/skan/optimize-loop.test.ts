/**
 * The optimizer's schema in use: history through the real
 * ingestion, the proposal applied, then signed postbacks carrying its values: the campaign report
 * decodes their events and estimates revenue with the decoded amounts the optimizer wrote.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { CampaignWithReport } from '../../../../src/contract/skan.js'
import type { OptimizeResult } from '../../../../src/contract/skan-optimize.js'
import type { TestApp } from '../../../support/app.js'
import { createCampaign, post, postback40, signed, skanApp } from '../../../support/skan.js'
import { sendHistory, windowsOver } from '../../../support/skan-history.js'

let t: TestApp
let campaignId: string
beforeAll(async () => {
  const app = await skanApp()
  t = app.t
  campaignId = (await createCampaign(t, app.game, { adNetworkId: 'loop.skadnetwork' })).id
  await sendHistory(t, { game: app.game, orgId: t.orgId }, [
    ...Array.from({ length: 30 }, (_, i) => ({
      id: `p${i}`,
      revenue: (i + 1) * 2,
      events: ['tutorial_complete'],
    })),
    ...Array.from({ length: 90 }, (_, i) => ({
      id: `f${i}`,
      events: i % 9 === 0 ? ['tutorial_complete'] : [],
    })),
  ])
  windowsOver(t)
}, 60_000)
afterAll(() => t.close())

it('postbacks with the applied values decode to its events and its revenue', async () => {
  const res = await t.call('POST', `/api/v1/skan/campaigns/${campaignId}/optimize?apply=true`)
  expect(res.statusCode, res.body).toBe(200)
  const r = res.json<OptimizeResult>()
  // 30 payers → 3 buckets of 10 above one key-event bit (tutorial_complete = 1).
  expect(r.keyEvents.map((e) => e.event)).toEqual(['tutorial_complete'])
  expect(r.buckets).toHaveLength(4)
  const top = r.values.find((v) => v.bucket === 3 && v.events.length === 1)!
  const none = r.values.find((v) => v.value === 0)!

  const net = { 'ad-network-id': 'loop.skadnetwork' }
  for (const value of [top.value, top.value, none.value])
    expect((await post(t, signed(postback40({ ...net, 'conversion-value': value })))).statusCode).toBe(201)
  const report = (await t.call('GET', `/api/v1/skan/campaigns/${campaignId}`)).json<CampaignWithReport>()
    .report
  expect(report.installs).toBe(3)
  // Bucket 3 is value 6 + 1: the bits revenue_bucket_1 (2), revenue_bucket_2 (4), tutorial_complete (1).
  expect(top.value).toBe(7)
  expect(report.events).toEqual({ tutorial_complete: 2, revenue_bucket_1: 2, revenue_bucket_2: 2 })
  // The top bucket (payers of 42..60) decodes to their mean, 51.
  expect(top.decodedRevenue).toBe(51)
  expect(report.estimatedRevenue).toBe(2 * 51)
})
