/**
 * SKAN campaigns are bounded (each claims an ad network and source identifier pair on the shared
 * postback domain): campaigns per game, and campaigns an organization creates per hour. At the
 * limit passes, one past fails; another game or organization keeps its own budget.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GameWithSecrets } from '../../../../src/contract/games.js'
import { SKAN_LIMITS as L } from '../../../../src/contract/skan-limits.js'
import type { SkanCampaign } from '../../../../src/contract/skan.js'
import { createTestApp, type TestApp } from '../../../support/app.js'
import { expectError } from '../../../support/responses.js'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const HOUR = 3_600_000
/** The start of the next hour: a fresh creation window. */
const nextHour = () => t.clock.set(Math.floor(t.clock.now() / HOUR) * HOUR + HOUR)

async function skanGame(key = t.ownerKey): Promise<GameWithSecrets> {
  const res = await t.call('POST', '/api/v1/admin/games', {
    key,
    body: { name: `Game ${randomUUID().slice(0, 8)}`, platform: 'ios', modules: { skan: true } },
  })
  expect(res.statusCode, res.body).toBe(201)
  return res.json<GameWithSecrets>()
}

const create = (g: GameWithSecrets, i: number, key = t.ownerKey) =>
  t.call('POST', `/api/v1/skan/games/${g.id}/campaigns`, {
    key,
    body: {
      name: `Campaign ${i}`,
      adNetworkId: 'abc123.skadnetwork',
      sourceIdentifier: String(1000 + i),
      lockWindowHours: 24,
      conversionSchema: { events: { tutorial: 1 } },
    },
  })

/** Creates `n` campaigns numbered from `from`, each a 201. */
async function createMany(g: GameWithSecrets, from: number, n: number, key = t.ownerKey) {
  for (let i = from; i < from + n; i++) {
    const res = await create(g, i, key)
    expect(res.statusCode, res.body).toBe(201)
  }
}

describe('campaigns per game', () => {
  it(`${L.campaignsPerGame} campaigns pass; the next is a 409 saying why; another game has its own`, async () => {
    nextHour()
    const g = await skanGame()
    let made = 0
    while (made < L.campaignsPerGame) {
      const n = Math.min(L.campaignsPerHour, L.campaignsPerGame - made)
      await createMany(g, made, n)
      made += n
      nextHour()
    }
    const over = expectError(await create(g, made), 409, 'Conflict')
    expect(over.message).toBe(
      `game ${g.id} has ${L.campaignsPerGame} SKAN campaigns, the most a game may have: change one instead`,
    )
    const list = await t.call('GET', `/api/v1/skan/games/${g.id}/campaigns?limit=100`)
    expect(list.json<{ data: SkanCampaign[] }>().data).toHaveLength(L.campaignsPerGame)
    expect((await create(await skanGame(), 0)).statusCode).toBe(201)
  })
})

describe('campaigns an organization creates per hour', () => {
  it(`${L.campaignsPerHour} an hour pass across its games; the next is a 429 with Retry-After until the hour ends`, async () => {
    nextHour()
    t.clock.advance(20 * 60_000) // 40 minutes left in the window
    const [a, b] = [await skanGame(), await skanGame()]
    await createMany(a, 0, L.campaignsPerHour / 2)
    await createMany(b, 0, L.campaignsPerHour / 2)
    const res = await create(a, L.campaignsPerHour)
    const body = expectError(res, 429, 'RateLimitExceeded')
    expect(body.message).toBe(
      `the organization created ${L.campaignsPerHour} SKAN campaigns this hour, the most an hour allows; retry after 2400 s`,
    )
    expect(res.headers['retry-after']).toBe('2400')
    // Nothing was created by the refused request.
    const listed = await t.call('GET', `/api/v1/skan/games/${a.id}/campaigns?limit=100`)
    expect(listed.json<{ data: SkanCampaign[] }>().data).toHaveLength(L.campaignsPerHour / 2)

    // Another organization has its own pace.
    const other = await t.createOrg('other-skan-org', 'enterprise')
    expect((await create(await skanGame(other.ownerKey), 0, other.ownerKey)).statusCode).toBe(201)

    // The next hour, the organization creates again.
    nextHour()
    expect((await create(a, L.campaignsPerHour + 1)).statusCode).toBe(201)
  })
})
