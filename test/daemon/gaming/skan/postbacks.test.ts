/**
 * SKAN postbacks: Apple's 4.0 vector and tampered copies, 2.2 / 3.0 / 4.0
 * postbacks signed with a test key, field validation per version, dedupe, matching, decoding,
 * the .well-known address.
 */
import { generateKeyPairSync } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GameWithSecrets } from '../../../../src/contract/games.js'
import type { PostbackAnswer, SkanCampaign, SkanPostback } from '../../../../src/contract/skan.js'
import type { PageOf } from '../../../../src/contract/common.js'
import {
  APPLE_SKAN_PUBLIC_KEY,
  parsePostback,
  publicKeyOf,
  verifyPostback,
} from '../../../../daemon/modules/gaming/skan/postback.js'
import { createTestApp, type TestApp, sqlRows } from '../../../support/app.js'
import { createGame } from '../../../support/gaming.js'
import {
  APPLE_VECTOR,
  createCampaign,
  matchedCampaign,
  post,
  postback22,
  postback30,
  postback40,
  signed,
  skanApp,
} from '../../../support/skan.js'

const apple = [publicKeyOf(APPLE_SKAN_PUBLIC_KEY)]
const answer = (res: { json(): unknown }) => res.json() as PostbackAnswer
const fields = (res: { json(): unknown }) =>
  (res.json() as { details?: { field: string }[] }).details?.map((d) => d.field)

describe("Apple's 4.0 vector", () => {
  it('verifies; a copy with any signed field changed does not; conversion values are not signed', () => {
    expect(verifyPostback(parsePostback(APPLE_VECTOR), apple)).toBe(true)
    const tampered: Record<string, unknown>[] = [
      { version: '4.1' },
      { 'ad-network-id': 'com.examplf' },
      { 'source-identifier': '38' },
      { 'app-id': 525463030 },
      { 'transaction-id': '6aafb7a5-0170-41b5-bbe4-fe71dedf1e32' },
      { redownload: true },
      { 'source-domain': 'example.org' },
      { 'source-domain': undefined },
      { 'source-domain': undefined, 'source-app-id': 1 },
      { 'fidelity-type': 0 },
      { 'did-win': false },
      { 'postback-sequence-index': 1 },
      { 'attribution-signature': undefined },
    ]
    for (const change of tampered)
      expect(
        verifyPostback(parsePostback({ ...APPLE_VECTOR, ...change }), apple),
        JSON.stringify(change),
      ).toBe(false)
    for (const change of [{ 'coarse-conversion-value': 'low' }, { 'conversion-value': 42 }])
      expect(
        verifyPostback(parsePostback({ ...APPLE_VECTOR, ...change }), apple),
        JSON.stringify(change),
      ).toBe(true)
  })

  it('posted without a key to both addresses (shared and custom host) answers verified: true', async () => {
    const t = await createTestApp()
    try {
      const res = await post(t, APPLE_VECTOR)
      expect(res.statusCode, res.body).toBe(201)
      expect(answer(res)).toMatchObject({
        verified: true,
        duplicate: false,
        campaignId: null,
        version: '4.0',
      })
      expect(answer(res).id).toMatch(/^skan_/)
      for (const url of [
        '/.well-known/skadnetwork/report-attribution/',
        '/.well-known/skadnetwork/report-attribution',
      ]) {
        const copy = { ...APPLE_VECTOR, 'postback-sequence-index': 1, 'coarse-conversion-value': 'low' }
        const tamperedAt = await post(t, copy, url)
        // Another sequence index is another postback: signed differently, so not verified.
        expect([200, 201]).toContain(tamperedAt.statusCode)
        expect(answer(tamperedAt).verified).toBe(false)
        const again = await t.app.inject({
          method: 'POST',
          url,
          headers: { host: 'go.customer.example', 'content-type': 'application/json' },
          payload: JSON.stringify(APPLE_VECTOR),
        })
        expect(again.statusCode, again.body).toBe(200)
        expect(answer(again)).toEqual({ ...answer(res), duplicate: true })
      }
    } finally {
      await t.close()
    }
  })

  it('the keyless route counts in the per-IP API rate limit', async () => {
    const t = await createTestApp({ rateLimitPerIp: 2 })
    try {
      expect((await post(t, APPLE_VECTOR)).statusCode).toBe(201)
      expect((await post(t, APPLE_VECTOR, '/.well-known/skadnetwork/report-attribution/')).statusCode).toBe(
        200,
      )
      const limited = await post(t, APPLE_VECTOR)
      expect(limited.statusCode).toBe(429)
      expect(limited.headers['retry-after']).toMatch(/^\d+$/)
    } finally {
      await t.close()
    }
  })

  it('a tampered copy first is stored unverified; the genuine one then replaces it', async () => {
    const t = await createTestApp()
    try {
      const forged = await post(t, { ...APPLE_VECTOR, 'app-id': 1 })
      expect(forged.statusCode).toBe(201)
      expect(answer(forged).verified).toBe(false)
      const genuine = await post(t, APPLE_VECTOR)
      expect(genuine.statusCode).toBe(201)
      expect(answer(genuine)).toMatchObject({ id: answer(forged).id, verified: true, duplicate: false })
      const forgedAgain = await post(t, { ...APPLE_VECTOR, 'app-id': 1 })
      expect(forgedAgain.statusCode).toBe(200)
      // A repeat, but the copy itself does not verify: never vouched for.
      expect(answer(forgedAgain)).toEqual({ ...answer(genuine), verified: false, duplicate: true })
      // The genuine one again is the plain repeat.
      expect(answer(await post(t, APPLE_VECTOR))).toEqual({ ...answer(genuine), duplicate: true })
    } finally {
      await t.close()
    }
  })
})

describe('postbacks of each version with a test key', () => {
  let t: TestApp
  let game: GameWithSecrets
  let campaign: SkanCampaign
  beforeAll(async () => {
    ;({ t, game } = await skanApp())
    campaign = await createCampaign(t, game, { sourceIdentifier: '39' })
  })
  afterAll(() => t.close())

  it('2.2, 3.0 and 4.0 signed with a trusted key verify and match the campaign; other keys do not', async () => {
    for (const p of [postback22(), postback30(), postback40()]) {
      // With a key of the campaign's organization, the answer names the campaign.
      const res = await post(t, signed(p), undefined, t.ownerKey)
      expect(res.statusCode, res.body).toBe(201)
      expect(answer(res)).toMatchObject({ verified: true, campaignId: campaign.id, version: p.version })
    }
    const stranger = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey
    for (const p of [postback22(), postback30(), postback40()])
      expect(answer(await post(t, signed(p, stranger))).verified).toBe(false)
    // Unsigned: stored, not verified.
    expect(answer(await post(t, postback40())).verified).toBe(false)
    // Later 4.x versions are read as 4.0 (their own version string is what is signed).
    expect(answer(await post(t, signed(postback40({ version: '4.2' }))))).toMatchObject({
      verified: true,
      version: '4.2',
    })
  })

  it('field validation per version: 400 listing every problem', async () => {
    const bad = async (body: unknown, expected: string[]) => {
      const res = await post(t, body)
      expect(res.statusCode, JSON.stringify(body)).toBe(400)
      expect(fields(res)).toEqual(expected)
    }
    await bad(postback40({ version: '2.1' }), ['version'])
    await bad(postback40({ version: '5.0' }), ['version'])
    const { 'source-identifier': _s, ...noSource } = postback40()
    await bad({ ...noSource, 'campaign-id': 39 }, ['source-identifier'])
    await bad(postback40({ 'source-identifier': '1' }), ['source-identifier'])
    await bad(postback40({ 'source-identifier': '12345' }), ['source-identifier'])
    await bad(postback40({ 'source-identifier': 39 }), ['source-identifier'])
    const { 'campaign-id': _c, ...noCampaign } = postback30()
    await bad(noCampaign, ['campaign-id'])
    await bad(postback30({ 'campaign-id': 101 }), ['campaign-id'])
    const { 'did-win': _d, ...noDidWin } = postback30()
    await bad(noDidWin, ['did-win'])
    expect((await post(t, postback22())).statusCode).toBe(201)
    await bad(postback40({ 'app-id': '1234' }), ['app-id'])
    await bad(postback40({ 'transaction-id': 'not-a-uuid' }), ['transaction-id'])
    await bad(postback40({ redownload: 'false' }), ['redownload'])
    await bad(postback40({ 'fidelity-type': 2 }), ['fidelity-type'])
    await bad(postback40({ 'postback-sequence-index': 3 }), ['postback-sequence-index'])
    await bad(postback40({ 'conversion-value': 64 }), ['conversion-value'])
    await bad(postback40({ 'postback-sequence-index': 1, 'conversion-value': 5 }), ['conversion-value'])
    await bad(postback40({ 'coarse-conversion-value': 'huge' }), ['coarse-conversion-value'])
    await bad(postback40({ 'source-domain': 'example.com' }), ['source-domain'])
    await bad(postback40({ 'app-id': 0, 'fidelity-type': -1 }), ['app-id', 'fidelity-type'])
    await bad([1, 2], ['body'])
    expect((await post(t, postback40({ 'conversion-value': 0 }))).statusCode).toBe(201)
    expect((await post(t, postback40({ 'conversion-value': 63 }))).statusCode).toBe(201)
    expect((await post(t, postback40({ 'postback-sequence-index': 2 }))).statusCode).toBe(201)
  })

  it('dedupe by (transaction-id, postback-sequence-index): a repeat is the first answer', async () => {
    const first = signed(postback40())
    const a = await post(t, first)
    expect(a.statusCode).toBe(201)
    const b = await post(t, { ...first, 'coarse-conversion-value': 'high' })
    expect(b.statusCode).toBe(200)
    expect(answer(b)).toEqual({ ...answer(a), duplicate: true })
    const next = await post(t, signed({ ...first, 'postback-sequence-index': 1 }))
    expect(next.statusCode).toBe(201)
    expect(answer(next).id).not.toBe(answer(a).id)
  })

  it('decodes the fine value into events and its band, the window from the sequence index', async () => {
    const c = await createCampaign(t, game, { adNetworkId: 'decode.skadnetwork' })
    const tx = postback40()['transaction-id']!
    const base = { 'ad-network-id': 'decode.skadnetwork', 'transaction-id': tx }
    const overs: Record<string, string | number>[] = [
      { 'conversion-value': 5 },
      { 'postback-sequence-index': 1, 'coarse-conversion-value': 'medium' },
      { 'postback-sequence-index': 2, 'coarse-conversion-value': 'high' },
    ]
    for (const over of overs) {
      expect((await post(t, signed(postback40({ ...base, ...over })))).statusCode).toBe(201)
      t.clock.advance(1000)
    }
    const res = await t.call('GET', `/api/v1/skan/campaigns/${c.id}/postbacks`)
    expect(res.statusCode, res.body).toBe(200)
    const rows = res.json<PageOf<SkanPostback>>().data
    expect(rows.map((r) => [r.window, r.fineValue, r.coarseValue, r.events, r.verified])).toEqual([
      ['8-35', null, 'high', [], true],
      ['3-7', null, 'medium', [], true],
      ['0-2', 5, 'low', ['tutorial', 'purchase'], true],
    ])
  })
})

describe('matching to a campaign', () => {
  let t: TestApp
  let game: GameWithSecrets
  beforeAll(async () => ({ t, game } = await skanApp()))
  afterAll(() => t.close())
  const campaignOf = async (p: Record<string, string | number | boolean>) => {
    const s = signed(p)
    expect((await post(t, s)).statusCode).toBe(201)
    return matchedCampaign(t, s)
  }

  it('by ad network and source identifier (4.0) or campaign-id (2.2, 3.0), across organizations', async () => {
    const other = await t.createOrg('other')
    const otherGame = await t.call('POST', '/api/v1/admin/games', {
      key: other.ownerKey,
      body: { name: 'Other', platform: 'ios', modules: { skan: true } },
    })
    const og = otherGame.json<{ id: string }>()
    const c07 = await t.call('POST', `/api/v1/skan/games/${og.id}/campaigns`, {
      key: other.ownerKey,
      body: {
        name: 'seven',
        adNetworkId: 'net.skadnetwork',
        sourceIdentifier: '07',
        lockWindowHours: 24,
        conversionSchema: { events: {} },
      },
    })
    const seven = c07.json<SkanCampaign>()
    const open = await createCampaign(t, game, { adNetworkId: 'net.skadnetwork' })
    const base = { 'ad-network-id': 'net.skadnetwork' }
    expect(await campaignOf(postback40({ ...base, 'source-identifier': '07' }))).toBe(seven.id)
    expect(await campaignOf(postback30({ ...base, 'campaign-id': 7 }))).toBe(seven.id)
    expect(await campaignOf(postback22({ ...base, 'campaign-id': 7 }))).toBe(seven.id)
    // Ad network ids compare case-insensitively.
    expect(
      await campaignOf(postback40({ 'ad-network-id': 'NET.skadnetwork', 'source-identifier': '07' })),
    ).toBe(seven.id)
    // No campaign with that source: the one campaign of the network without a source identifier.
    expect(await campaignOf(postback40({ ...base, 'source-identifier': '99' }))).toBe(open.id)
    expect(await campaignOf(postback40({ 'ad-network-id': 'unknown.skadnetwork' }))).toBeNull()
  })

  it("on an organization's verified custom domain, only its campaigns: tenants sharing a source identifier are told apart", async () => {
    // The test organization registers the pair first: on the shared domain it is its own.
    const first = await createCampaign(t, game, {
      adNetworkId: 'shared.skadnetwork',
      sourceIdentifier: '4242',
    })
    t.clock.advance(1000)
    const tenant = await t.createOrg('tenant-with-domain')
    const game2 = (
      await t.call('POST', '/api/v1/admin/games', {
        key: tenant.ownerKey,
        body: { name: 'Tenant Game', platform: 'ios', modules: { skan: true } },
      })
    ).json<{ id: string }>()
    const mine = (
      await t.call('POST', `/api/v1/skan/games/${game2.id}/campaigns`, {
        key: tenant.ownerKey,
        body: {
          name: 'mine',
          adNetworkId: 'shared.skadnetwork',
          sourceIdentifier: '4242',
          lockWindowHours: 24,
          conversionSchema: { events: {} },
        },
      })
    ).json<SkanCampaign>()
    const domain = await t.call('POST', '/api/domains', {
      key: tenant.ownerKey,
      body: { domain: 'go.tenant.example' },
    })
    expect(domain.statusCode, domain.body).toBe(201)
    const p = () => signed(postback40({ 'ad-network-id': 'shared.skadnetwork', 'source-identifier': '4242' }))
    const wellKnown = '/.well-known/skadnetwork/report-attribution/'
    const via = async (host: string) => {
      const body = p()
      const res = await t.app.inject({
        method: 'POST',
        url: wellKnown,
        headers: { host, authorization: `Bearer ${tenant.ownerKey}` },
        payload: body,
      })
      expect(res.statusCode, res.body).toBe(201)
      const matched = await matchedCampaign(t, body)
      // The tenant's key sees the campaign only when it is the tenant's own.
      expect(answer(res).campaignId).toBe(matched === mine.id ? mine.id : null)
      return matched
    }
    expect(await campaignOf(p())).toBe(first.id)
    // A pending (unverified) domain proves nothing about its organization: the shared rule.
    expect(await via('go.tenant.example')).toBe(first.id)
    await sqlRows(
      t,
      "UPDATE custom_domains SET verification_status = 'verified' WHERE domain = ?",
      'go.tenant.example',
    )
    await t.app.linkd.services.directory.refresh()
    expect(await via('go.tenant.example')).toBe(mine.id)
    expect(await via('go.tenant.example:8443')).toBe(mine.id)
  })

  it('unmatched when ambiguous or when the game has SKAN off; kept either way', async () => {
    await createCampaign(t, game, { adNetworkId: 'twice.skadnetwork', sourceIdentifier: '55' })
    await createCampaign(t, game, { adNetworkId: 'twice.skadnetwork', sourceIdentifier: '55' })
    expect(
      await campaignOf(postback40({ 'ad-network-id': 'twice.skadnetwork', 'source-identifier': '55' })),
    ).toBeNull()
    const g2 = await createGame(t, { modules: { skan: true } })
    const c = await createCampaign(t, g2, { adNetworkId: 'off.skadnetwork' })
    expect(await campaignOf(postback40({ 'ad-network-id': 'off.skadnetwork' }))).toBe(c.id)
    await t.call('PATCH', `/api/v1/admin/games/${g2.id}`, { body: { modules: { skan: false } } })
    const res = await post(t, signed(postback40({ 'ad-network-id': 'off.skadnetwork' })))
    expect(res.statusCode).toBe(201)
    expect(answer(res)).toMatchObject({ verified: true, campaignId: null })
  })
})
