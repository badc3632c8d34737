/**
 * A smart link with a split fallback: each visit's click id carries its variant through install
 * attribution, so the link's analytics count installs per variant, and the install's UTM fields
 * come from the variant's URL.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { GameWithSecrets } from '../../../../src/contract/games.js'
import type { PlayerProfile } from '../../../../src/contract/gaming-revenue.js'
import type { SmartLink } from '../../../../src/contract/smart-links.js'
import { createTestApp, type TestApp } from '../../../support/app.js'
import { accepted, batch, createGame, event, send } from '../../../support/gaming.js'
import { analytics, CHROME_WINDOWS, SAFARI_IPHONE, visit } from '../../../support/redirect.js'

const E = 'https://example.com'
const VARIANTS = [
  { destinationUrl: `${E}/a?utm_source=alpha`, weight: 50 },
  { destinationUrl: `${E}/b?utm_source=beta`, weight: 50 },
]
let t: TestApp
let game: GameWithSecrets

beforeEach(async () => {
  t = await createTestApp({ ingestRateLimitPerGame: 100_000, ingestRateLimitPerClient: 100_000 })
  game = await createGame(t, { slug: 'split' })
})
afterEach(() => t.close())

/** A human visit: where it went (without the click id) and its click id. */
async function click(code: string, ip: string, ua = CHROME_WINDOWS): Promise<{ to: string; id: string }> {
  const res = await visit(t, code, { ip, ua })
  expect(res.statusCode).toBe(302)
  const url = new URL(String(res.headers.location))
  const id = url.searchParams.get('linkd_click')
  expect(id).toMatch(/^clk_/)
  url.searchParams.delete('linkd_click')
  return { to: url.toString(), id: id! }
}

const install = (player: string, clickId: string) =>
  event(t, { event_type: 'app_install', player_id: player, data: { click_id: clickId } })

async function profile(player: string): Promise<PlayerProfile> {
  const res = await t.call('GET', `/api/v1/analytics/games/${game.id}/players/${player}`)
  expect(res.statusCode, res.body).toBe(200)
  return res.json<PlayerProfile>()
}

describe('installs per variant of a split smart link', () => {
  it('the click id of a variant visit credits that variant; a platform target credits none', async () => {
    const res = await t.call('POST', '/api/use/smart-links', {
      body: {
        fallbackUrl: `${E}/fallback`,
        ios: { url: 'https://apps.apple.com/app/id1' },
        variants: VARIANTS,
      },
    })
    expect(res.statusCode, res.body).toBe(201)
    const link = res.json<SmartLink>()

    // Visitors until each variant has been visited; every visit installs.
    const visits: Array<{ to: string; id: string }> = []
    for (let i = 0; i < 40 && new Set(visits.map((v) => v.to)).size < 2; i++)
      visits.push(await click(link.shortCode, `10.0.0.${i + 1}`))
    expect(new Set(visits.map((v) => v.to))).toEqual(new Set(VARIANTS.map((v) => v.destinationUrl)))
    const ios = await click(link.shortCode, '10.0.1.1', SAFARI_IPHONE)
    const events = [...visits.map((v, i) => install(`p${i}`, v.id)), install('ios', ios.id)]
    expect(accepted(await send(t, batch(t, events), { game, orgId: t.orgId })).accepted).toBe(events.length)

    const a = await analytics(t, link.id)
    expect(a.installs).toBe(visits.length + 1)
    expect(a.variants).toEqual(
      VARIANTS.map((v) => {
        const mine = visits.filter((x) => x.to === v.destinationUrl)
        return { ...v, clicks: mine.length, uniqueVisitors: mine.length, installs: mine.length }
      }),
    )
    // The install's UTM fields come from the variant it went to.
    const first = visits[0]!
    expect((await profile('p0')).attribution).toMatchObject({
      linkId: link.id,
      clickId: first.id,
      source: new URL(first.to).searchParams.get('utm_source'),
    })
  })
})
