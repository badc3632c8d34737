/**
 * The fraud events list and review over the API: newest first, every filter, the
 * page size boundary (200 / 201), the date range's edges, review, 404 / 403 / 409. Fraud events
 * are seeded as the pipeline writes them (events-store record() in a unit of work).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PageOf } from '../../../../src/contract/common.js'
import type { FraudEvent } from '../../../../src/contract/fraud.js'
import type { GameWithSecrets } from '../../../../src/contract/games.js'
import { createTestApp, type TestApp } from '../../../support/app.js'
import { fraudEvent, gameIdOf, seedFraud } from '../../../support/fraud.js'
import { createGame } from '../../../support/gaming.js'

let t: TestApp
let game: GameWithSecrets
let gameId: string
const at = (iso: string) => Date.parse(iso)
const eventsUrl = (g = game.id) => `/api/v1/admin/fraud/games/${g}/events`

beforeAll(async () => {
  t = await createTestApp()
  game = await createGame(t, { modules: { fraud: true } })
  gameId = await gameIdOf(t, game.id)
  const e = (id: string, iso: string, over: Parameters<typeof fraudEvent>[2] = {}) =>
    fraudEvent(t, gameId, { id, receivedAt: at(iso), ...over })
  await seedFraud(t, gameId, [
    e('fev_a', '2026-11-10T00:00:00.000Z', { threatType: 'emulator', status: 'blocked', playerId: 'p-emu' }),
    e('fev_b', '2026-11-12T08:00:00.000Z', { threatType: 'device_farm', playerId: 'p-farm' }),
    // Two at the same millisecond: the larger id first.
    e('fev_c', '2026-11-15T12:00:00.000Z', { threatType: 'bot_detection', status: 'blocked' }),
    e('fev_d', '2026-11-15T12:00:00.000Z', { threatType: null, playerId: 'p-farm' }),
    // The last millisecond of 2026-11-18, and the first of the next day.
    e('fev_e', '2026-11-18T23:59:59.999Z', { threatType: 'revenue_anomaly' }),
    e('fev_f', '2026-11-19T00:00:00.000Z', { threatType: 'bot_detection', playerId: 'p-farm' }),
  ])
})
afterAll(() => t.close())

async function list(query = '', g = game.id): Promise<PageOf<FraudEvent>> {
  const res = await t.call('GET', `${eventsUrl(g)}${query}`)
  expect(res.statusCode, res.body).toBe(200)
  return res.json<PageOf<FraudEvent>>()
}
const ids = (p: PageOf<FraudEvent>) => p.data.map((e) => e.id)
const fieldsOf = (res: { json(): unknown }) =>
  (res.json() as { details?: { field: string }[] }).details?.map((d) => d.field)

describe('GET …/events', () => {
  it('lists newest first by receivedAt, then id; each event in the contract shape', async () => {
    const page = await list()
    expect(ids(page)).toEqual(['fev_f', 'fev_e', 'fev_d', 'fev_c', 'fev_b', 'fev_a'])
    expect(page).toMatchObject({ total: 6, page: 1, perPage: 20, hasMore: false })
    expect(page.data[5]).toEqual({
      id: 'fev_a',
      receivedAt: '2026-11-10T00:00:00.000Z',
      playerId: 'p-emu',
      eventId: expect.any(String),
      eventType: 'level_start',
      threatType: 'emulator',
      riskScore: 0.9,
      status: 'blocked',
      triggeredRules: ['Block Bot Traffic'],
      triggeredRuleCount: 1,
      reasons: { bot_detection: ['user agent names a bot'] },
      ip: '203.0.113.7',
      deviceFingerprint: 'fp-1',
      review: 'pending',
      reviewedAt: null,
    })
  })

  it('filters by threat type, status, player, and combines them', async () => {
    expect(ids(await list('?threatType=bot_detection'))).toEqual(['fev_f', 'fev_c'])
    expect(ids(await list('?status=blocked'))).toEqual(['fev_c', 'fev_a'])
    expect(ids(await list('?status=detected'))).toEqual(['fev_f', 'fev_e', 'fev_d', 'fev_b'])
    expect(ids(await list('?playerId=p-farm'))).toEqual(['fev_f', 'fev_d', 'fev_b'])
    expect(ids(await list('?playerId=p-farm&threatType=bot_detection&status=detected'))).toEqual(['fev_f'])
    expect((await list('?playerId=nobody')).total).toBe(0)
  })

  it('startDate/endDate are whole UTC days: 23:59:59.999 of endDate counts, the next ms does not', async () => {
    expect(ids(await list('?endDate=2026-11-18'))).toEqual(['fev_e', 'fev_d', 'fev_c', 'fev_b', 'fev_a'])
    expect(ids(await list('?startDate=2026-11-19'))).toEqual(['fev_f'])
    expect(ids(await list('?startDate=2026-11-12&endDate=2026-11-15'))).toEqual(['fev_d', 'fev_c', 'fev_b'])
    // 00:00:00.000 of startDate counts; the day before does not.
    expect(ids(await list('?startDate=2026-11-10&endDate=2026-11-10'))).toEqual(['fev_a'])
    expect((await list('?startDate=2026-11-11&endDate=2026-11-11')).total).toBe(0)
  })

  it('refuses a bad filter with a 400 naming the field', async () => {
    for (const [query, field] of [
      ['?threatType=spam', 'threatType'],
      ['?status=flagged', 'status'],
      ['?startDate=2026-11-31', 'startDate'],
      ['?startDate=2026-11-19&endDate=2026-11-18', 'startDate'],
      ['?endDate=yesterday', 'endDate'],
    ] as const) {
      const res = await t.call('GET', `${eventsUrl()}${query}`)
      expect(res.statusCode, query).toBe(400)
      expect(fieldsOf(res), query).toContain(field)
    }
  })

  it('pages of at most 200: 200 passes, 201 is a 400 (limit and its alias perPage)', async () => {
    const g = await createGame(t, { modules: { fraud: true } })
    const id = await gameIdOf(t, g.id)
    const base = at('2026-11-20T00:00:00.000Z')
    await seedFraud(
      t,
      id,
      Array.from({ length: 205 }, (_, i) => fraudEvent(t, id, { receivedAt: base + i })),
    )
    const full = await list('?perPage=200', g.id)
    expect(full).toMatchObject({ total: 205, perPage: 200, hasMore: true })
    expect(full.data).toHaveLength(200)
    expect(full.data[0]!.receivedAt).toBe(new Date(base + 204).toISOString())
    const second = await list('?limit=200&page=2', g.id)
    expect(second).toMatchObject({ total: 205, page: 2, hasMore: false })
    expect(second.data.map((e) => e.receivedAt)).toEqual(
      [4, 3, 2, 1, 0].map((i) => new Date(base + i).toISOString()),
    )
    for (const query of ['?perPage=201', '?limit=201', '?limit=150']) {
      const res = await t.call('GET', `${eventsUrl(g.id)}${query}`)
      expect(res.statusCode, query).toBe(400)
      expect(fieldsOf(res)?.join(), query).toMatch(/limit|perPage/)
    }
  })
})

describe('PATCH …/events/:eventId', () => {
  it('marks an event legitimate or fraud (reviewedAt now); pending clears the review', async () => {
    const g = await createGame(t, { modules: { fraud: true } })
    const id = await gameIdOf(t, g.id)
    const ev = fraudEvent(t, id)
    await seedFraud(t, id, [ev])
    const review = (review: string) => t.call('PATCH', `${eventsUrl(g.id)}/${ev.id}`, { body: { review } })
    const legit = await review('legitimate')
    expect(legit.statusCode, legit.body).toBe(200)
    expect(legit.json()).toMatchObject({
      id: ev.id,
      review: 'legitimate',
      reviewedAt: new Date(t.clock.now()).toISOString(),
    })
    t.clock.advance(60_000)
    expect((await review('fraud')).json()).toMatchObject({
      review: 'fraud',
      reviewedAt: new Date(t.clock.now()).toISOString(),
    })
    expect((await list('', g.id)).data[0]).toMatchObject({ review: 'fraud' })
    expect((await review('pending')).json()).toMatchObject({ review: 'pending', reviewedAt: null })
    const bad = await review('maybe')
    expect(bad.statusCode).toBe(400)
    expect(fieldsOf(bad)).toContain('review')
  })

  it("another game's or organization's event is 404; fraud:read cannot review", async () => {
    const other = await createGame(t, { modules: { fraud: true } })
    const res = await t.call('PATCH', `${eventsUrl(other.id)}/fev_a`, { body: { review: 'fraud' } })
    expect(res.statusCode).toBe(404)
    expect((await t.call('PATCH', `${eventsUrl()}/fev_nope`, { body: { review: 'fraud' } })).statusCode).toBe(
      404,
    )
    const org = await t.createOrg('other-fraud-events')
    const asOther = (method: 'GET' | 'PATCH', url: string) =>
      t.call(method, url, { key: org.ownerKey, ...(method === 'PATCH' ? { body: { review: 'fraud' } } : {}) })
    expect((await asOther('PATCH', `${eventsUrl()}/fev_a`)).statusCode).toBe(404)
    expect((await asOther('GET', eventsUrl())).statusCode).toBe(404)
    const reader = await t.createKey({ permissions: ['fraud:read'] })
    expect((await t.call('GET', eventsUrl(), { key: reader.key })).statusCode).toBe(200)
    const patched = await t.call('PATCH', `${eventsUrl()}/fev_a`, {
      key: reader.key,
      body: { review: 'fraud' },
    })
    expect(patched.statusCode).toBe(403)
    expect((await list()).data.find((e) => e.id === 'fev_a')?.review).toBe('pending')
  })

  it('a game with fraud off answers 409 on the events, review and dashboard routes', async () => {
    const g = await createGame(t)
    for (const [method, url] of [
      ['GET', eventsUrl(g.id)],
      ['PATCH', `${eventsUrl(g.id)}/fev_a`],
      ['GET', `/api/v1/admin/fraud/games/${g.id}/dashboard`],
    ] as const) {
      const res = await t.call(method, url, method === 'PATCH' ? { body: { review: 'fraud' } } : {})
      expect(res.statusCode, url).toBe(409)
      expect(res.json()).toMatchObject({ error: 'Conflict' })
    }
  })
})
