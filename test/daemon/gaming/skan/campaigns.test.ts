/** SKAN campaigns over the API: CRUD, every schema rule at its boundaries, 404/403/409. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GameWithSecrets } from '../../../../src/contract/games.js'
import type { SkanCampaign } from '../../../../src/contract/skan.js'
import { createTestApp, type TestApp } from '../../../support/app.js'
import { createGame } from '../../../support/gaming.js'

let t: TestApp
let game: GameWithSecrets
beforeAll(async () => {
  t = await createTestApp()
  game = await createGame(t, { modules: { skan: true } })
})
afterAll(() => t.close())

const campaignsUrl = (g = game.id) => `/api/v1/skan/games/${g}/campaigns`
const valid = {
  name: 'Spring UA',
  adNetworkId: 'abc123.skadnetwork',
  lockWindowHours: 24,
  conversionSchema: { events: { tutorial: 1, level_5: 2, purchase: 4 } },
}
const create = (body: Record<string, unknown>, g = game.id) => t.call('POST', campaignsUrl(g), { body })
const withSchema = (schema: Record<string, unknown>) => ({
  ...valid,
  conversionSchema: { ...valid.conversionSchema, ...schema },
})
const details = (res: { json(): unknown }) =>
  (res.json() as { details?: { field: string; message: string }[] }).details
const fields = (res: { json(): unknown }) => [...new Set(details(res)?.map((d) => d.field))]
const bands = (low: [number, number], medium: [number, number], high: [number, number]) => ({
  coarseValues: {
    low: { min: low[0], max: low[1] },
    medium: { min: medium[0], max: medium[1] },
    high: { min: high[0], max: high[1] },
  },
})

describe('create, list, update', () => {
  it('creates a campaign with the schema defaults filled in and lists it', async () => {
    const res = await create({ ...valid, affiliateId: 'aff-7', sourceIdentifier: '39' })
    expect(res.statusCode, res.body).toBe(201)
    const c = res.json<SkanCampaign>()
    expect(c.id).toMatch(/^skan_/)
    expect(c).toMatchObject({
      gameId: game.id,
      name: 'Spring UA',
      adNetworkId: 'abc123.skadnetwork',
      affiliateId: 'aff-7',
      sourceIdentifier: '39',
      lockWindowHours: 24,
      conversionSchema: {
        events: { tutorial: 1, level_5: 2, purchase: 4 },
        coarseValues: { low: { min: 0, max: 10 }, medium: { min: 11, max: 40 }, high: { min: 41, max: 63 } },
        lockWindow: 24,
      },
    })
    const list = await t.call('GET', campaignsUrl())
    expect(list.statusCode).toBe(200)
    expect(list.json<{ data: SkanCampaign[] }>().data.map((x) => x.id)).toContain(c.id)
  })

  it('PATCH changes fields and the schema; a new lock window moves the stored schema with it', async () => {
    const c = (await create(valid)).json<SkanCampaign>()
    const url = `/api/v1/skan/campaigns/${c.id}`
    const renamed = await t.call('PATCH', url, { body: { name: 'Renamed', lockWindowHours: 48 } })
    expect(renamed.statusCode, renamed.body).toBe(200)
    expect(renamed.json<SkanCampaign>()).toMatchObject({
      name: 'Renamed',
      lockWindowHours: 48,
      conversionSchema: { lockWindow: 48 },
    })
    const schema = await t.call('PATCH', url, {
      body: { conversionSchema: { events: { install: 32 }, decodedRevenue: { fine: { '32': 1.5 } } } },
    })
    expect(schema.statusCode, schema.body).toBe(200)
    expect(schema.json<SkanCampaign>().conversionSchema).toMatchObject({
      events: { install: 32 },
      lockWindow: 48,
      decodedRevenue: { fine: { '32': 1.5 } },
    })
    // A lock window that disagrees with the schema sent with it.
    const bad = await t.call('PATCH', url, {
      body: { lockWindowHours: 12, conversionSchema: { events: {}, lockWindow: 48 } },
    })
    expect(bad.statusCode).toBe(400)
    expect(fields(bad)).toEqual(['conversionSchema.lockWindow'])
  })

  it('404 for another organization, 409 while SKAN is off, 403 without the scope', async () => {
    const c = (await create(valid)).json<SkanCampaign>()
    const other = await t.createOrg('other')
    expect((await t.call('GET', campaignsUrl(), { key: other.ownerKey })).statusCode).toBe(404)
    expect(
      (await t.call('PATCH', `/api/v1/skan/campaigns/${c.id}`, { body: { name: 'x' }, key: other.ownerKey }))
        .statusCode,
    ).toBe(404)
    const off = await createGame(t)
    const res = await create(valid, off.id)
    expect(res.statusCode).toBe(409)
    expect(res.json<{ message: string }>().message).toContain(`linkctl games update ${off.id} --skan`)
    const reader = await t.createKey({ permissions: ['skan:read'] })
    expect((await t.call('GET', campaignsUrl(), { key: reader.key })).statusCode).toBe(200)
    expect((await t.call('POST', campaignsUrl(), { key: reader.key, body: valid })).statusCode).toBe(403)
  })
})

describe('validation at the boundaries (400 naming the field)', () => {
  it('name and adNetworkId', async () => {
    expect(fields(await create({ ...valid, name: '' }))).toEqual(['name'])
    expect(fields(await create({ ...valid, name: 'x'.repeat(201) }))).toEqual(['name'])
    expect((await create({ ...valid, name: 'x'.repeat(200) })).statusCode).toBe(201)
    expect(fields(await create({ ...valid, affiliateId: '' }))).toEqual(['affiliateId'])
    expect(fields(await create({ ...valid, adNetworkId: `${'a'.repeat(89)}.skadnetwork` }))).toEqual([
      'adNetworkId',
    ])
    expect((await create({ ...valid, adNetworkId: `${'a'.repeat(88)}.skadnetwork` })).statusCode).toBe(201)
    expect(fields(await create({ ...valid, adNetworkId: 'ABC.skadnetwork' }))).toEqual(['adNetworkId'])
    expect(fields(await create({ ...valid, adNetworkId: 'abc.network' }))).toEqual(['adNetworkId'])
    expect(details(await create({ ...valid, adNetworkId: 'abc.network' }))?.[0]?.message).toBe(
      'must be <name>.skadnetwork in lower case, such as abc123.skadnetwork',
    )
    expect(fields(await create({ ...valid, adNetworkId: '.skadnetwork' }))).toEqual(['adNetworkId'])
    expect((await create({ ...valid, adNetworkId: 'a.skadnetwork' })).statusCode).toBe(201)
    expect(fields(await create({ ...valid, sourceIdentifier: '1' }))).toEqual(['sourceIdentifier'])
    expect(fields(await create({ ...valid, sourceIdentifier: '12345' }))).toEqual(['sourceIdentifier'])
    expect((await create({ ...valid, sourceIdentifier: '1234' })).statusCode).toBe(201)
  })

  it('lockWindowHours 1-72', async () => {
    expect(fields(await create({ ...valid, lockWindowHours: 0 }))).toEqual(['lockWindowHours'])
    expect(fields(await create({ ...valid, lockWindowHours: 73 }))).toEqual(['lockWindowHours'])
    expect((await create({ ...valid, lockWindowHours: 1 })).statusCode).toBe(201)
    expect((await create({ ...valid, lockWindowHours: 72 })).statusCode).toBe(201)
  })

  it('events: powers of two within 6 bits, no shared bit', async () => {
    for (const bad of [0, 3, 6, 64, -2]) {
      const res = await create(withSchema({ events: { a: bad } }))
      expect(res.statusCode, `value ${bad}`).toBe(400)
      expect(fields(res)).toEqual(['conversionSchema.events.a'])
      expect(details(res)?.[0]?.message).toMatch(/power of two/)
    }
    expect((await create(withSchema({ events: { a: 1, b: 32 } }))).statusCode).toBe(201)
    const shared = await create(withSchema({ events: { a: 8, b: 8 } }))
    expect(fields(shared)).toEqual(['conversionSchema.events.b'])
    expect(details(shared)?.[0]?.message).toMatch(/shares its bit \(8\) with event a/)
    const six = { a: 1, b: 2, c: 4, d: 8, e: 16, f: 32 }
    expect((await create(withSchema({ events: six }))).statusCode).toBe(201)
    expect(fields(await create(withSchema({ events: { ...six, g: 1 } })))).toEqual([
      'conversionSchema.events',
    ])
    expect((await create(withSchema({ events: {} }))).statusCode).toBe(201)
  })

  it('coarseValues: within 0-63, ordered, non-overlapping, covering 0-63', async () => {
    expect((await create(withSchema(bands([0, 0], [1, 62], [63, 63])))).statusCode).toBe(201)
    const overlap = await create(withSchema(bands([0, 11], [11, 40], [41, 63])))
    expect(fields(overlap)).toEqual(['conversionSchema.coarseValues.medium.min'])
    const gap = await create(withSchema(bands([0, 10], [12, 40], [41, 63])))
    expect(fields(gap)).toEqual(['conversionSchema.coarseValues.medium.min'])
    expect(details(gap)?.[0]?.message).toMatch(/without a gap/)
    const notFromZero = await create(withSchema(bands([1, 10], [11, 40], [41, 63])))
    expect(fields(notFromZero)).toEqual(['conversionSchema.coarseValues.low.min'])
    const short = await create(withSchema(bands([0, 10], [11, 40], [41, 62])))
    expect(fields(short)).toEqual(['conversionSchema.coarseValues.high.max'])
    const reversed = await create(withSchema(bands([0, 10], [40, 11], [41, 63])))
    expect(fields(reversed)).toEqual(['conversionSchema.coarseValues.medium'])
    const above = await create(withSchema(bands([0, 10], [11, 40], [41, 64])))
    expect(fields(above)).toEqual(['conversionSchema.coarseValues.high.max'])
    const negative = await create(withSchema(bands([-1, 10], [11, 40], [41, 63])))
    expect(fields(negative)).toEqual(['conversionSchema.coarseValues.low.min'])
  })

  it('lockWindow equal to the campaign’s; unknown keys refused; decodedRevenue checked', async () => {
    expect(fields(await create(withSchema({ lockWindow: 25 })))).toEqual(['conversionSchema.lockWindow'])
    expect((await create(withSchema({ lockWindow: 24 }))).statusCode).toBe(201)
    expect(fields(await create(withSchema({ colour: 'red' })))).toEqual(['conversionSchema.colour'])
    const revenue = (decodedRevenue: unknown) => create(withSchema({ decodedRevenue }))
    expect((await revenue({ fine: { '0': 0, '63': 9.99 }, coarse: { high: 5 } })).statusCode).toBe(201)
    expect(fields(await revenue({ fine: { '64': 1 } }))).toEqual(['conversionSchema.decodedRevenue.fine.64'])
    expect(fields(await revenue({ fine: { '1': -0.01 } }))).toEqual([
      'conversionSchema.decodedRevenue.fine.1',
    ])
    expect(fields(await revenue({ coarse: { huge: 1 } }))).toEqual([
      'conversionSchema.decodedRevenue.coarse.huge',
    ])
  })
})
