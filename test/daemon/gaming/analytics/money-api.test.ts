/**
 * Gaming analytics part B over the API: game settings (reporting currency, segment
 * thresholds), currency conversion at ingestion, and the 400 / 403 / 404 answers of revenue,
 * attribution, segments, players and players/:playerId.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Game, GameWithSecrets } from '../../../../src/contract/games.js'
import type {
  AttributionReport,
  PlayerProfile,
  PlayersPage,
  RevenueReport,
  SegmentsReport,
} from '../../../../src/contract/gaming-revenue.js'
import { createTestApp, type TestApp } from '../../../support/app.js'
import { accepted, batch, createGame, event, send } from '../../../support/gaming.js'

let t: TestApp
let game: GameWithSecrets
const today = () => new Date(t.clock.now()).toISOString().slice(0, 10)

beforeAll(async () => {
  t = await createTestApp()
  game = await createGame(t, { slug: 'money' })
})
afterAll(() => t.close())

const get = (path: string, key?: string) =>
  t.call('GET', `/api/v1/analytics/games/${game.id}/${path}`, key === undefined ? {} : { key })
const patch = (body: unknown, slug = game.id) => t.call('PATCH', `/api/v1/admin/games/${slug}`, { body })

describe('game settings: reporting currency and segment thresholds', () => {
  it('defaults USD, whale 100, dolphin 10; set at creation', async () => {
    expect(game).toMatchObject({ reportingCurrency: 'USD', segments: { whale: 100, dolphin: 10 } })
    const euro = await createGame(t, { reportingCurrency: 'EUR', segments: { whale: 50 } })
    expect(euro).toMatchObject({ reportingCurrency: 'EUR', segments: { whale: 50, dolphin: 10 } })
  })

  it('400 naming the field: unknown currency, whale not above dolphin, a threshold of 0', async () => {
    for (const [body, field] of [
      [{ reportingCurrency: 'XYZ' }, 'reportingCurrency'],
      [{ reportingCurrency: 'usd' }, 'reportingCurrency'],
      [{ segments: { whale: 10 } }, 'segments.whale'],
      [{ segments: { dolphin: 100 } }, 'segments.dolphin'],
      [{ segments: { whale: 5, dolphin: 5 } }, 'segments.whale'],
      [{ segments: { dolphin: 0 } }, 'segments'],
      [{ segments: { whale: 20, extra: 1 } }, 'segments'],
    ] as const) {
      const res = await patch(body)
      expect(res.statusCode, JSON.stringify(body)).toBe(400)
      expect(JSON.stringify(res.json().details), JSON.stringify(body)).toContain(field.split('.')[0])
      if (field.includes('.')) expect(res.json().details[0].field).toBe(field)
    }
    const create = await t.call('POST', '/api/v1/admin/games', {
      body: { name: 'Bad thresholds', platform: 'ios', segments: { whale: 1, dolphin: 2 } },
    })
    expect(create.statusCode).toBe(400)
    // Whale just above dolphin is fine.
    expect((await patch({ segments: { whale: 10.01 } })).json<Game>().segments).toEqual({
      whale: 10.01,
      dolphin: 10,
    })
    expect((await patch({ segments: { whale: 100 } })).statusCode).toBe(200)
  })

  it('the currency changes while the game has no players, then 409', async () => {
    const g = await createGame(t, { slug: 'fresh' })
    expect((await patch({ reportingCurrency: 'GBP' }, g.id)).json<Game>().reportingCurrency).toBe('GBP')
    const res = await send(t, batch(t, [event(t, { player_id: 'first' })]), { game: g, orgId: t.orgId })
    expect(accepted(res).accepted).toBe(1)
    const refused = await patch({ reportingCurrency: 'EUR' }, g.id)
    expect(refused.statusCode).toBe(409)
    expect(refused.json().message).toMatch(/reportingCurrency/)
    // Erasing every player leaves their amounts in the daily aggregates: still 409.
    const erase = await t.call('POST', '/api/v1/gaming/gdpr/deletions', {
      body: { gameId: g.id, playerId: 'first', reason: 'gdpr_request', confirmation: 'DELETE' },
    })
    expect(erase.statusCode).toBe(202)
    await t.app.linkd.scheduler.runNow('gdpr-deletions')
    expect((await t.call('GET', `/api/v1/analytics/games/${g.id}/players`)).json<PlayersPage>().total).toBe(0)
    expect((await patch({ reportingCurrency: 'EUR' }, g.id)).statusCode).toBe(409)
    // The same currency again is no change.
    expect((await patch({ reportingCurrency: 'GBP', name: 'Fresh' }, g.id)).statusCode).toBe(200)
  })
})

describe('currency conversion at ingestion', () => {
  it('converts with data.exchange_rate, refuses a foreign amount without one, per event', async () => {
    const o = { game, orgId: t.orgId }
    const res = await send(
      t,
      batch(t, [
        event(t, {
          player_id: 'eu',
          event_type: 'app_install',
          timestamp: new Date(t.clock.now() - 60_000).toISOString(),
          data: { cost: 2, currency: 'EUR', exchange_rate: 1.5, source: 'ads' },
        }),
        event(t, {
          player_id: 'eu',
          event_type: 'purchase',
          data: { amount: 10, currency: 'EUR', exchange_rate: 1.1, commission: 1 },
        }),
        event(t, { player_id: 'eu', event_type: 'purchase', data: { amount: 10, currency: 'EUR' } }),
        event(t, { player_id: 'us', event_type: 'purchase', data: { amount: 4, currency: 'USD' } }),
      ]),
      o,
    )
    const r = accepted(res)
    expect(r.accepted).toBe(3)
    expect(r.errors).toEqual([
      expect.objectContaining({
        index: 2,
        error: 'InvalidEvent',
        message: expect.stringMatching(/exchange_rate/),
      }),
    ])
    const revenue = (await get('revenue?groupBy=source')).json<RevenueReport>()
    expect(revenue.totals).toMatchObject({ total: 15, iap: 15, transactions: 2, payingUsers: 2, arppu: 7.5 })
    // 'us' has no source: its purchase is the (none) row, and the rows add up to the totals.
    expect(revenue.data).toEqual([
      {
        group: 'ads',
        total: 11,
        iap: 11,
        ad: 0,
        subscription: 0,
        transactions: 1,
        payingUsers: 1,
        arppu: 11,
      },
      {
        group: '(none)',
        total: 4,
        iap: 4,
        ad: 0,
        subscription: 0,
        transactions: 1,
        payingUsers: 1,
        arppu: 4,
      },
    ])
    const attribution = (await get('attribution?groupBy=source')).json<AttributionReport>()
    // Sorted by installs, then group: (none) after the named ones.
    expect(attribution.data).toEqual([
      {
        group: 'ads',
        installs: 1,
        conversions: 1,
        revenue: 11,
        cost: 3,
        commission: 1.1,
        avgCpa: 3,
        avgRoas: 3.666667,
      },
      {
        group: '(none)',
        installs: 1,
        conversions: 1,
        revenue: 4,
        cost: 0,
        commission: 0,
        avgCpa: 0,
        avgRoas: null,
      },
    ])
    expect(attribution.totals).toMatchObject({
      installs: 2,
      conversions: 2,
      revenue: 15,
      cost: 3,
      commission: 1.1,
    })
    const player = (await get('players/eu')).json<PlayerProfile>()
    expect(player).toMatchObject({
      revenue: 11,
      revenueByType: { iap: 11, ad: 0, subscription: 0 },
      currency: 'USD',
    })
    expect(player.events.data.map((e) => e.revenue)).toEqual([11, null])
  })

  it('a game reporting in EUR takes EUR as sent and converts USD', async () => {
    const g = await createGame(t, { reportingCurrency: 'EUR' })
    const res = await send(
      t,
      batch(t, [
        event(t, { event_type: 'purchase', data: { amount: 3, currency: 'EUR' } }),
        event(t, { event_type: 'purchase', data: { amount: 2, currency: 'USD', exchange_rate: 0.5 } }),
        event(t, { event_type: 'purchase', data: { amount: 2, currency: 'USD' } }),
      ]),
      { game: g, orgId: t.orgId },
    )
    expect(accepted(res)).toMatchObject({ accepted: 2, rejected: 1 })
    const revenue = await t.call('GET', `/api/v1/analytics/games/${g.id}/revenue`)
    expect(revenue.json<RevenueReport>()).toMatchObject({ currency: 'EUR', totals: { total: 4 } })
  })
})

describe('answers of the endpoints', () => {
  it('segments and players answer with the currency; a player without events page is empty', async () => {
    const s = (await get('segments')).json<SegmentsReport>()
    expect(s.currency).toBe('USD')
    expect(s.data.map((r) => r.segment)).toEqual(['whale', 'dolphin', 'minnow', 'free'])
    const p = (await get('players?search=e')).json<PlayersPage>()
    expect(p).toMatchObject({ total: 1, page: 1, perPage: 20, hasMore: false, currency: 'USD' })
    expect((await get('players/eu?page=9')).json<PlayerProfile>().events).toMatchObject({
      data: [],
      total: 2,
    })
  })

  it('every 400 at its boundary, naming the parameter', async () => {
    for (const [path, field] of [
      ['revenue?groupBy=year', 'groupBy'],
      ['revenue?startDate=2026-02-30', 'startDate'],
      [`revenue?startDate=${today()}&endDate=2020-01-01`, 'startDate'],
      ['attribution?groupBy=platform', 'groupBy'],
      ['players?sort=name', 'sort'],
      ['players?order=up', 'order'],
      ['players?segment=shark', 'segment'],
      ['players?minRevenue=-0.01', 'minRevenue'],
      ['players?platform=gameboy', 'platform'],
      ['players?country=DEU', 'country'],
      ['players?limit=7', 'limit'],
      ['players?page=0', 'page'],
      ['players?search=', 'search'],
      ['players?lastActiveFrom=2026-13-01', 'lastActiveFrom'],
      ['players?lastActiveFrom=2026-11-02&lastActiveTo=2026-11-01', 'lastActiveFrom'],
      ['players/eu?limit=1000', 'limit'],
    ] as const) {
      const res = await get(path)
      expect(res.statusCode, path).toBe(400)
      expect(res.json(), path).toMatchObject({ error: 'ValidationError', statusCode: 400 })
      expect(JSON.stringify(res.json().details ?? res.json().message), path).toContain(field)
    }
    // The edges that are fine.
    for (const path of [
      'players?minRevenue=0',
      'players?lastActiveFrom=2026-11-01&lastActiveTo=2026-11-01',
      'players?limit=100',
    ])
      expect((await get(path)).statusCode, path).toBe(200)
  })

  it('404 for another organization’s game and an unknown player; scope analytics:read', async () => {
    const other = await t.createOrg('other-b')
    for (const path of ['revenue', 'attribution', 'segments', 'players', 'players/eu'])
      expect((await get(path, other.ownerKey)).statusCode, path).toBe(404)
    expect((await get('players/nobody')).statusCode).toBe(404)
    const analyst = await t.createKey({ permissions: ['analytics:read'] })
    const outsider = await t.createKey({ permissions: ['games:read'] })
    for (const path of ['revenue', 'attribution', 'segments', 'players', 'players/eu']) {
      expect((await get(path, analyst.key)).statusCode, path).toBe(200)
      expect((await get(path, outsider.key)).statusCode, path).toBe(403)
      expect((await get(path, null as unknown as string)).statusCode, path).toBe(401)
    }
  })
})
