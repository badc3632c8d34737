/**
 * Install attribution by click id over the API: a smart link's click, then an app_install
 * carrying its click id — the same organization only, within the game's window (with the clock
 * tolerance), one install per click, UTM fields from the link's destination unless the event
 * sets them; attribution groupBy=link and the smart link's analytics (installs, installRevenue).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Game, GameWithSecrets } from '../../../../src/contract/games.js'
import type { AttributionReport, PlayerProfile } from '../../../../src/contract/gaming-revenue.js'
import type { SmartLink } from '../../../../src/contract/smart-links.js'
import { createTestApp, sqlRows, type TestApp } from '../../../support/app.js'
import { accepted, batch, createGame, event, send } from '../../../support/gaming.js'
import { analytics, DAY, SAFARI_IPHONE, visit } from '../../../support/redirect.js'

const FALLBACK = 'https://example.com/game?utm_source=tiktok&utm_medium=cpc&utm_campaign=launch'
let t: TestApp
let game: GameWithSecrets

beforeEach(async () => {
  t = await createTestApp({ ingestRateLimitPerGame: 100_000, ingestRateLimitPerClient: 100_000 })
  game = await createGame(t, { slug: 'attr' })
})
afterEach(() => t.close())

async function makeSmart(over: Record<string, unknown> = {}, key?: string): Promise<SmartLink> {
  const res = await t.call('POST', '/api/use/smart-links', {
    body: { fallbackUrl: FALLBACK, ios: { url: 'https://apps.apple.com/app/id1' }, ...over },
    ...(key ? { key } : {}),
  })
  expect(res.statusCode, res.body).toBe(201)
  return res.json<SmartLink>()
}

/** A human visit of a smart link from an iPhone: its click id (left in the recorder's buffer). */
async function click(link: SmartLink): Promise<string> {
  const res = await visit(t, link.shortCode, { ua: SAFARI_IPHONE })
  expect(res.statusCode).toBe(302)
  const id = new URL(String(res.headers.location)).searchParams.get('linkd_click')
  expect(id).toMatch(/^clk_/)
  return id!
}

const install = (player: string, clickId: string | null, data: Record<string, unknown> = {}, at?: number) =>
  event(t, {
    event_type: 'app_install',
    player_id: player,
    ...(at !== undefined ? { timestamp: new Date(at).toISOString() } : {}),
    data: { ...(clickId ? { click_id: clickId } : {}), ...data },
  })
const purchase = (player: string, amount: number) =>
  event(t, { event_type: 'purchase', player_id: player, data: { amount, currency: 'USD' } })

async function ingest(events: unknown[], g: GameWithSecrets = game, orgId = t.orgId) {
  return accepted(await send(t, batch(t, events), { game: g, orgId }))
}

async function profile(player: string, g: GameWithSecrets = game): Promise<PlayerProfile> {
  const res = await t.call('GET', `/api/v1/analytics/games/${g.id}/players/${player}`)
  expect(res.statusCode, res.body).toBe(200)
  return res.json<PlayerProfile>()
}

async function byLink(g: GameWithSecrets = game): Promise<AttributionReport> {
  const res = await t.call('GET', `/api/v1/analytics/games/${g.id}/attribution?groupBy=link`)
  expect(res.statusCode, res.body).toBe(200)
  return res.json<AttributionReport>()
}

describe('game setting attributionWindowDays', () => {
  it('defaults to 7; 1 and 30 are accepted, 0 and 31 are 400 naming the field', async () => {
    expect(game.attributionWindowDays).toBe(7)
    expect((await createGame(t, { attributionWindowDays: 1 })).attributionWindowDays).toBe(1)
    expect((await createGame(t, { attributionWindowDays: 30 })).attributionWindowDays).toBe(30)
    const patch = (attributionWindowDays: unknown) =>
      t.call('PATCH', `/api/v1/admin/games/${game.id}`, { body: { attributionWindowDays } })
    expect((await patch(30)).json<Game>().attributionWindowDays).toBe(30)
    expect((await patch(1)).json<Game>().attributionWindowDays).toBe(1)
    for (const bad of [0, 31, 2.5]) {
      const res = await patch(bad)
      expect(res.statusCode, String(bad)).toBe(400)
      expect(JSON.stringify(res.json().details)).toContain('attributionWindowDays')
    }
    const create = await t.call('POST', '/api/v1/admin/games', {
      body: { name: 'Bad window', platform: 'ios', attributionWindowDays: 31 },
    })
    expect(create.statusCode).toBe(400)
    const got = await t.call('GET', `/api/v1/admin/games/${game.id}`)
    expect(got.json<Game>().attributionWindowDays).toBe(1)
  })
})

describe('attribution of an install by click id', () => {
  it('credits the clicked link (a click still in the buffer), UTM from its destination', async () => {
    const link = await makeSmart()
    const id = await click(link)
    expect(t.app.linkd.services.clicks.recorder.status().buffered).toBeGreaterThan(0)
    expect((await ingest([install('p1', id)])).accepted).toBe(1)
    expect((await profile('p1')).attribution).toEqual({
      affiliate: null,
      campaign: 'launch',
      source: 'tiktok',
      medium: 'cpc',
      linkId: link.id,
      clickId: id,
    })
  })

  it("the event's own UTM fields win over the destination's", async () => {
    const link = await makeSmart()
    const id = await click(link)
    await ingest([install('p1', id, { utm_source: 'newsletter', campaign: 'spring' })])
    expect((await profile('p1')).attribution).toMatchObject({
      source: 'newsletter',
      campaign: 'spring',
      medium: 'cpc',
      linkId: link.id,
    })
  })

  it("another organization's click id, an unknown one: accepted, not attributed", async () => {
    const other = await t.createOrg('other')
    const foreign = await click(await makeSmart({}, other.ownerKey))
    const r = await ingest([install('p1', foreign), install('p2', 'clk_doesnotexist'), install('p3', 'x')])
    expect(r).toMatchObject({ accepted: 3, rejected: 0 })
    for (const p of ['p1', 'p2', 'p3'])
      expect((await profile(p)).attribution, p).toMatchObject({ linkId: null, clickId: null, source: null })
    // No link row: the three installs are in the (none) row.
    expect((await byLink()).data.map((x) => [x.group, x.shortUrl, x.installs])).toEqual([['(none)', null, 3]])
  })

  it('one click credits one install: a second player with the same click id is not attributed', async () => {
    const link = await makeSmart()
    const id = await click(link)
    await ingest([install('p1', id)])
    await ingest([install('p2', id)])
    expect((await profile('p1')).attribution.linkId).toBe(link.id)
    expect((await profile('p2')).attribution).toMatchObject({ linkId: null, clickId: null, source: null })
    // In one batch too: the earlier install wins.
    const id2 = await click(link)
    const now = t.clock.now()
    await ingest([install('p4', id2, {}, now), install('p3', id2, {}, now - 1000)])
    expect((await profile('p3')).attribution.clickId).toBe(id2)
    expect((await profile('p4')).attribution.clickId).toBeNull()
  })

  it("a GDPR erasure drops the player's name from the claim; the click stays used", async () => {
    const id = await click(await makeSmart())
    await ingest([install('p1', id)])
    const erase = await t.call('POST', '/api/v1/gaming/gdpr/deletions', {
      body: { gameId: game.id, playerId: 'p1', reason: 'gdpr_request', confirmation: 'DELETE' },
    })
    expect(erase.statusCode).toBe(202)
    await t.app.linkd.scheduler.runNow('gdpr-deletions')
    expect(await sqlRows(t, 'SELECT player_id FROM install_click_claims')).toEqual([{ player_id: '' }])
    await ingest([install('p2', id)])
    expect((await profile('p2')).attribution.clickId).toBeNull()
  })

  it('a player keeps its first link: a later install with another click changes nothing', async () => {
    const a = await makeSmart()
    const b = await makeSmart({ fallbackUrl: 'https://example.com/b?utm_source=b' })
    const first = await click(a)
    const second = await click(b)
    await ingest([install('p1', first)])
    await ingest([install('p1', second)])
    expect((await profile('p1')).attribution).toMatchObject({ linkId: a.id, clickId: first })
    // The second click was not used up: another player gets it.
    await ingest([install('p2', second)])
    expect((await profile('p2')).attribution).toMatchObject({ linkId: b.id, source: 'b' })
  })

  it('window: exactly N days after the click passes, one ms more fails; 5 min before the click passes', async () => {
    await t.call('PATCH', `/api/v1/admin/games/${game.id}`, { body: { attributionWindowDays: 2 } })
    const link = await makeSmart()
    const clickedAt = t.clock.now()
    const onTime = await click(link)
    const late = await click(link)
    const early = await click(link)
    const tooEarly = await click(link)
    await ingest([install('early', early, {}, clickedAt - 5 * 60_000)])
    await ingest([install('too-early', tooEarly, {}, clickedAt - 5 * 60_000 - 1)])
    t.clock.advance(2 * DAY)
    await ingest([install('on-time', onTime, {}, clickedAt + 2 * DAY)])
    await ingest([install('late', late, {}, clickedAt + 2 * DAY + 1)])
    expect((await profile('on-time')).attribution.clickId).toBe(onTime)
    expect((await profile('early')).attribution.clickId).toBe(early)
    expect((await profile('late')).attribution.clickId).toBeNull()
    expect((await profile('too-early')).attribution.clickId).toBeNull()
    // A click outside the window was not used up: it still credits an install within it (none here).
  })

  it('a player seen before its install is still credited, and counted as the link install', async () => {
    const link = await makeSmart()
    const id = await click(link)
    await ingest([event(t, { player_id: 'p1' })])
    await ingest([install('p1', id), purchase('p1', 4)])
    const report = await byLink()
    expect(report.data).toEqual([
      expect.objectContaining({
        group: link.id,
        shortUrl: link.shortUrl,
        installs: 1,
        conversions: 1,
        revenue: 4,
      }),
    ])
  })
})

describe('reports', () => {
  it('attribution groupBy=link: installs, conversions, revenue, cost per link; a deleted link has shortUrl null', async () => {
    const a = await makeSmart()
    const b = await makeSmart()
    const ca = [await click(a), await click(a)]
    const cb = await click(b)
    await ingest([
      install('a1', ca[0]!, { cost: 2 }),
      install('a2', ca[1]!),
      install('b1', cb),
      install('none', null),
      purchase('a1', 9.5),
      purchase('b1', 1),
      purchase('none', 100),
    ])
    const r = await byLink()
    expect(r.data).toEqual([
      {
        group: a.id,
        shortUrl: a.shortUrl,
        installs: 2,
        conversions: 1,
        revenue: 9.5,
        cost: 2,
        commission: 0,
        avgCpa: 2,
        avgRoas: 4.75,
      },
      {
        group: b.id,
        shortUrl: b.shortUrl,
        installs: 1,
        conversions: 1,
        revenue: 1,
        cost: 0,
        commission: 0,
        avgCpa: 0,
        avgRoas: null,
      },
      {
        group: '(none)',
        shortUrl: null,
        installs: 1,
        conversions: 1,
        revenue: 100,
        cost: 0,
        commission: 0,
        avgCpa: 0,
        avgRoas: null,
      },
    ])
    // The install without a link is in the (none) row: the rows add up to the totals.
    expect(r.totals).toMatchObject({ installs: 4, conversions: 3, revenue: 110.5 })
    // Other groupings carry no shortUrl.
    const bySource = (
      await t.call('GET', `/api/v1/analytics/games/${game.id}/attribution?groupBy=source`)
    ).json<AttributionReport>()
    expect(bySource.data.find((x) => x.group === 'tiktok')).toMatchObject({ installs: 3 })
    expect(bySource.data.every((x) => !('shortUrl' in x))).toBe(true)
    // The CSV export names the short URL after the link's id; by source it has no such column.
    const csv = (
      await t.call('GET', `/api/v1/analytics/games/${game.id}/export?type=attribution&groupBy=link`)
    ).body.split('\r\n')
    expect(csv[0]).toBe('group,shortUrl,installs,conversions,revenue,cost,commission,avgCpa,avgRoas,currency')
    expect(csv).toContain(`${a.id},${a.shortUrl},2,1,9.5,2,0,2,4.75,${game.reportingCurrency}`)
    expect(csv).toContain(`(none),,1,1,100,0,0,0,,${game.reportingCurrency}`)
    expect(csv).toContain(`TOTAL,,4,3,110.5,2,0,0.666667,55.25,${game.reportingCurrency}`)
    const sourceCsv = (await t.call('GET', `/api/v1/analytics/games/${game.id}/export?type=attribution`)).body
    expect(sourceCsv.split('\r\n')[0]).toBe(
      'group,installs,conversions,revenue,cost,commission,avgCpa,avgRoas,currency',
    )
    expect((await t.call('DELETE', `/api/use/smart-links/${b.id}`)).statusCode).toBe(204)
    expect((await byLink()).data.find((x) => x.group === b.id)).toMatchObject({ shortUrl: null, installs: 1 })
  })

  it("a smart link's analytics: installs over the org's games and their revenue per game", async () => {
    const link = await makeSmart()
    const euro = await createGame(t, { slug: 'euro', reportingCurrency: 'EUR' })
    const ids = [await click(link), await click(link), await click(link)]
    await ingest([install('p1', ids[0]!), purchase('p1', 3), install('p2', ids[1]!)])
    await ingest(
      [
        install('e1', ids[2]!),
        event(t, { event_type: 'purchase', player_id: 'e1', data: { amount: 5, currency: 'EUR' } }),
      ],
      euro,
    )
    const a = await analytics(t, link.id)
    expect(a.installs).toBe(3)
    expect(a.installRevenue).toEqual([
      { gameId: 'attr', currency: 'USD', installs: 2, revenue: 3 },
      { gameId: 'euro', currency: 'EUR', installs: 1, revenue: 5 },
    ])
    // A range before the installs: none.
    const before = await analytics(t, link.id, `startDate=2020-01-01T00:00:00Z&endDate=2020-01-02T00:00:00Z`)
    expect(before).toMatchObject({ installs: 0, installRevenue: [] })
    // A plain link has neither field.
    const plain = await t.call('POST', '/api/use/links', { body: { destinationUrl: 'https://example.com/' } })
    const p = await analytics(t, plain.json<{ id: string }>().id)
    expect('installs' in p || 'installRevenue' in p).toBe(false)
  })
})
