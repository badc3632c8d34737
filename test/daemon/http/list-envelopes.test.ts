/**
 * Fraud rules, SKAN campaigns and webhook templates are lists like the others:
 * the envelope `{data, total, page, perPage, hasMore}`, `page` and `limit` (alias `perPage`:
 * 10, 20, 50, 100; default 20; anything else a 400). `data` is where it always was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PageOf } from '../../../src/contract/common.js'
import { createTestApp, type TestApp } from '../../support/app.js'
import { createGame } from '../../support/gaming.js'
import { expectError } from '../../support/responses.js'

let t: TestApp
let rulesUrl: string
let campaignsUrl: string
const templatesUrl = '/api/webhooks/templates'

beforeAll(async () => {
  t = await createTestApp()
  const game = await createGame(t, { modules: { analytics: true, fraud: true, skan: true } })
  rulesUrl = `/api/v1/admin/fraud/games/${game.id}/rules`
  campaignsUrl = `/api/v1/skan/games/${game.id}/campaigns`
  // 6 templates + 6 rules; 12 campaigns.
  for (let i = 0; i < 6; i++) {
    const rule = await t.call('POST', rulesUrl, {
      body: { name: `rule ${i}`, action: 'flag', field: 'data.amount', operator: 'gt', value: 100 + i },
    })
    expect(rule.statusCode, rule.body).toBe(201)
  }
  for (let i = 0; i < 12; i++) {
    const campaign = await t.call('POST', campaignsUrl, {
      body: {
        name: `campaign ${i}`,
        adNetworkId: `net${i}.skadnetwork`,
        lockWindowHours: 24,
        conversionSchema: { events: { purchase: 1 } },
      },
    })
    expect(campaign.statusCode, campaign.body).toBe(201)
  }
})
afterAll(() => t.close())

async function page(url: string): Promise<PageOf<{ id: string }>> {
  const res = await t.call('GET', url)
  expect(res.statusCode, res.body).toBe(200)
  return res.json()
}

describe.each([
  ['fraud rules', () => rulesUrl, 12],
  ['SKAN campaigns', () => campaignsUrl, 12],
  ['webhook templates', () => templatesUrl, 6],
])('%s', (_name, url, total) => {
  it('default: the first 20 in the envelope', async () => {
    const first = await page(url())
    expect(first).toMatchObject({ total, page: 1, perPage: 20, hasMore: false })
    expect(first.data).toHaveLength(total)
  })

  it('limit and page walk the list in its order; perPage is an alias', async () => {
    const all = (await page(url())).data.map((r) => r.id)
    const one = await page(`${url()}?limit=10&page=1`)
    const two = await page(`${url()}?perPage=10&page=2`)
    expect(one).toMatchObject({ total, page: 1, perPage: 10, hasMore: total > 10 })
    expect(two).toMatchObject({ total, page: 2, perPage: 10, hasMore: false })
    expect([...one.data, ...two.data].map((r) => r.id)).toEqual(all)
  })

  it('another page size is a 400 naming limit', async () => {
    const res = await t.call('GET', `${url()}?limit=7`)
    expect(expectError(res, 400, 'ValidationError').details?.[0]?.field).toBe('limit')
    expectError(await t.call('GET', `${url()}?page=0`), 400, 'ValidationError')
  })
})
