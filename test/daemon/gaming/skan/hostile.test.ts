/**
 * The keyless postback route against a hostile client: bodies far larger than a postback are
 * refused (413), only Apple's fields are stored, postbacks anyone could have posted (unverified or
 * unmatched) stay within a count and a byte cap with the oldest dropped and counted; a second
 * organization copying another's (ad network, source identifier) gets none of its postbacks on
 * the shared domain, and the keyless answer names no campaign.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GameWithSecrets } from '../../../../src/contract/games.js'
import type { Health } from '../../../../src/contract/health.js'
import { SKAN_LIMITS, type PostbackAnswer, type SkanCampaign } from '../../../../src/contract/skan.js'
import { APPLE_SKAN_PUBLIC_KEY } from '../../../../daemon/modules/gaming/skan/postback.js'
import { count, createTestApp, sqlRows, type TestApp } from '../../../support/app.js'
import { createGame } from '../../../support/gaming.js'
import { expectError } from '../../../support/responses.js'
import {
  createCampaign,
  matchedCampaign,
  post,
  postback40,
  signed,
  skanApp,
  TEST_PUBLIC_KEY,
} from '../../../support/skan.js'

const answer = (res: { json(): unknown }) => res.json() as PostbackAnswer
const heldIds = async (t: TestApp) =>
  (
    await sqlRows<{ transaction_id: string }>(
      t,
      'SELECT transaction_id FROM skan_postbacks WHERE held = 1 ORDER BY received_at, id',
    )
  ).map((r) => r.transaction_id)
const dropped = async (t: TestApp) => {
  const res = await t.call('GET', '/health/ready', { key: null })
  expect(res.statusCode, res.body).toBe(200)
  return res.json<Health>().skan?.droppedPostbacks
}

describe('what a postback may bring', () => {
  let t: TestApp
  beforeAll(async () => ({ t } = await skanApp()))
  afterAll(() => t.close())

  /** A postback with a `padding` field making its JSON exactly `bytes` long. */
  const ofSize = (bytes: number) => {
    const p: Record<string, unknown> = { ...postback40(), padding: '' }
    p.padding = 'x'.repeat(bytes - Buffer.byteLength(JSON.stringify(p)))
    expect(Buffer.byteLength(JSON.stringify(p))).toBe(bytes)
    return p
  }

  it(`a body of ${SKAN_LIMITS.postbackBodyMax} bytes is read; one byte more is a 413 in the error body, nothing stored`, async () => {
    const before = await count(t, 'skan_postbacks', '1 = 1')
    expect((await post(t, ofSize(SKAN_LIMITS.postbackBodyMax))).statusCode).toBe(201)
    for (const url of ['/api/v1/skan/postbacks', '/.well-known/skadnetwork/report-attribution/']) {
      const res = await post(t, ofSize(SKAN_LIMITS.postbackBodyMax + 1), url)
      const body = expectError(res, 413, 'PayloadTooLarge')
      expect(body).toMatchObject({ statusCode: 413, path: url })
    }
    expect(await count(t, 'skan_postbacks', '1 = 1')).toBe(before + 1)
  })

  it("only Apple's fields are stored, whatever else the body holds", async () => {
    const apple = postback40()
    const p = { ...apple, junk: 'x'.repeat(6000), nested: { deep: [1, 2, 3] } }
    expect((await post(t, p)).statusCode).toBe(201)
    const [row] = await sqlRows<{ payload: string; stored_bytes: number }>(
      t,
      'SELECT payload, stored_bytes FROM skan_postbacks WHERE transaction_id = ?',
      apple['transaction-id'],
    )
    expect(JSON.parse(row!.payload)).toEqual(apple)
    expect(Number(row!.stored_bytes)).toBe(Buffer.byteLength(row!.payload))
    expect(Number(row!.stored_bytes)).toBeLessThan(1024)
  })
})

describe('postbacks anyone could have posted are held within caps, the oldest dropped', () => {
  const keys = { skanPublicKeys: [APPLE_SKAN_PUBLIC_KEY, TEST_PUBLIC_KEY] }

  it('at most LINKD_SKAN_HELD_MAX of them: unverified and unmatched ones count, verified matched ones never', async () => {
    const t = await createTestApp({ skanHeldMax: 3 }, keys)
    try {
      const game = await createGame(t, { modules: { skan: true } })
      await createCampaign(t, game, { sourceIdentifier: '39' })
      const unverified = [postback40(), postback40(), postback40({ 'ad-network-id': 'nobody.skadnetwork' })]
      for (const p of unverified) {
        expect((await post(t, p)).statusCode).toBe(201)
        t.clock.advance(1000)
      }
      // Verified and matched: Apple's, not held, never dropped.
      const genuine = Array.from({ length: 5 }, () => signed(postback40()))
      for (const p of genuine) expect(answer(await post(t, p)).verified).toBe(true)
      // Verified but unmatched: held.
      const unmatched = signed(postback40({ 'ad-network-id': 'nobody.skadnetwork' }))
      expect((await post(t, unmatched)).statusCode).toBe(201)
      expect(await heldIds(t)).toEqual([...unverified.slice(1), unmatched].map((p) => p['transaction-id']))
      expect(await dropped(t)).toBe(1)
      t.clock.advance(1000)
      const next = postback40()
      await post(t, next)
      expect(await heldIds(t)).toEqual([unverified[2]!, unmatched, next].map((p) => p['transaction-id']))
      expect(await dropped(t)).toBe(2)
      expect(await count(t, 'skan_postbacks', 'held = 0')).toBe(genuine.length)
    } finally {
      await t.close()
    }
  })

  it('at most LINKD_SKAN_HELD_MAX_BYTES of their stored JSON: at the cap all stay, one more drops the oldest', async () => {
    const size = Buffer.byteLength(JSON.stringify(postback40()))
    const fit = Math.ceil(4096 / size)
    const t = await createTestApp({ skanHeldMax: 1000, skanHeldMaxBytes: fit * size }, keys)
    try {
      const sent = Array.from({ length: fit }, () => postback40())
      for (const p of sent) {
        expect((await post(t, p)).statusCode).toBe(201)
        t.clock.advance(1000)
      }
      expect(await heldIds(t)).toHaveLength(fit)
      expect(await dropped(t)).toBe(0)
      const one = postback40()
      await post(t, one)
      expect(await heldIds(t)).toEqual([...sent.slice(1), one].map((p) => p['transaction-id']))
      expect(await dropped(t)).toBe(1)
    } finally {
      await t.close()
    }
  })

  it('a verified copy of a held postback leaves the cap', async () => {
    const t = await createTestApp({ skanHeldMax: 1 }, keys)
    try {
      const game = await createGame(t, { modules: { skan: true } })
      await createCampaign(t, game, { sourceIdentifier: '39' })
      const p = signed(postback40())
      await post(t, { ...p, 'attribution-signature': undefined })
      expect(await heldIds(t)).toEqual([p['transaction-id']])
      expect((await post(t, p)).statusCode).toBe(201)
      expect(await heldIds(t)).toEqual([])
      await post(t, postback40())
      await post(t, postback40())
      expect(await count(t, 'skan_postbacks', 'held = 0')).toBe(1)
    } finally {
      await t.close()
    }
  })
})

describe('campaign squatting', () => {
  let t: TestApp
  let game: GameWithSecrets
  let squatter: { orgId: string; ownerKey: string }
  let squatterGame: { id: string }
  beforeAll(async () => {
    ;({ t, game } = await skanApp())
    squatter = await t.createOrg('squatter')
    squatterGame = (
      await t.call('POST', '/api/v1/admin/games', {
        key: squatter.ownerKey,
        body: { name: 'Copycat', platform: 'ios', modules: { skan: true } },
      })
    ).json<{ id: string }>()
  })
  afterAll(() => t.close())

  const squat = async (over: Record<string, unknown>) => {
    const res = await t.call('POST', `/api/v1/skan/games/${squatterGame.id}/campaigns`, {
      key: squatter.ownerKey,
      body: {
        name: 'copy',
        adNetworkId: 'victim.skadnetwork',
        lockWindowHours: 24,
        conversionSchema: { events: {} },
        ...over,
      },
    })
    expect(res.statusCode, res.body).toBe(201)
    return res.json<SkanCampaign>()
  }
  const postbackOf = (source: string) =>
    signed(postback40({ 'ad-network-id': 'victim.skadnetwork', 'source-identifier': source }))

  it("a later organization's copy of the pair gets none of the first one's postbacks on the shared domain", async () => {
    // The squatter's old campaign, created before the victim's, on another pair.
    const early = await squat({ adNetworkId: 'other.skadnetwork', sourceIdentifier: '12' })
    t.clock.advance(60_000)
    const victim = await createCampaign(t, game, {
      adNetworkId: 'victim.skadnetwork',
      sourceIdentifier: '39',
    })
    t.clock.advance(60_000)
    await squat({ sourceIdentifier: '39' })
    // Moving the old campaign onto the pair is a new claim: it does not come first either.
    const moved = await t.call('PATCH', `/api/v1/skan/campaigns/${early.id}`, {
      key: squatter.ownerKey,
      body: { adNetworkId: 'victim.skadnetwork', sourceIdentifier: '39' },
    })
    expect(moved.statusCode, moved.body).toBe(200)
    for (const url of ['/api/v1/skan/postbacks', '/.well-known/skadnetwork/report-attribution/']) {
      const p = postbackOf('39')
      const res = await post(t, p, url, squatter.ownerKey)
      expect(res.statusCode, res.body).toBe(201)
      expect(await matchedCampaign(t, p)).toBe(victim.id)
      expect(answer(res).campaignId).toBeNull()
    }
    const list = await t.call('GET', `/api/v1/skan/campaigns/${victim.id}/postbacks`)
    expect(list.json<{ total: number }>().total).toBe(2)
  })

  it('the keyless answer names no campaign; a key of the campaign’s organization with skan:read sees it', async () => {
    const c = await createCampaign(t, game, { adNetworkId: 'victim.skadnetwork', sourceIdentifier: '77' })
    const p = postbackOf('77')
    const keyless = await post(t, p)
    expect(keyless.statusCode).toBe(201)
    expect(Object.keys(answer(keyless)).sort()).toEqual([
      'campaignId',
      'duplicate',
      'id',
      'verified',
      'version',
    ])
    expect(answer(keyless)).toMatchObject({ verified: true, duplicate: false, campaignId: null })
    expect(await matchedCampaign(t, p)).toBe(c.id)
    // Repeats: the same, per viewer.
    expect(answer(await post(t, p))).toEqual({ ...answer(keyless), duplicate: true })
    expect(answer(await post(t, p, undefined, squatter.ownerKey)).campaignId).toBeNull()
    expect(answer(await post(t, p, undefined, 'lk_live_not-a-real-key-at-all-000000')).campaignId).toBeNull()
    const noScope = await t.createKey({ permissions: ['links:read'] })
    expect(answer(await post(t, p, undefined, noScope.key)).campaignId).toBeNull()
    const reader = await t.createKey({ permissions: ['skan:read'] })
    expect(answer(await post(t, p, undefined, reader.key))).toMatchObject({
      duplicate: true,
      campaignId: c.id,
    })
  })
})
