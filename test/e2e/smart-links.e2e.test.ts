/**
 * End to end: the built `linkd` and `linkctl`. A smart link created with `linkctl sl create` is
 * visited with an iPhone's and an Android phone's user agent by a real HTTP client: each lands
 * on its platform's store with a click id; `linkctl links stats` counts the platforms and
 * `linkctl sl get` the clicks. Needs `npm run build` first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LinkAnalytics } from '../../src/contract/click-analytics.js'
import type { SmartLink } from '../../src/contract/smart-links.js'
import { startLinkdForCli, type LinkdForCli } from '../support/processes.js'

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'
const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.144 Mobile Safari/537.36'
const IOS = 'https://apps.apple.com/app/id1234567890'
const PLAY = 'https://play.google.com/store/apps/details?id=com.example.game'

let cli: LinkdForCli
beforeAll(async () => {
  cli = await startLinkdForCli('linkctl-smart-e2e-')
}, 60_000)
afterAll(() => cli?.close())

describe('smart links with the real binaries', () => {
  it('sends an iPhone to the App Store and an Android phone to Google Play, each with a click id', async () => {
    const made = await cli.linkctl([
      'sl',
      'create',
      '--fallback',
      'https://example.com/game',
      '--ios',
      IOS,
      '--android',
      PLAY,
      '--short-code',
      'e2e-game',
      '--json',
    ])
    expect(made.code, made.stderr).toBe(0)
    const s = JSON.parse(made.stdout) as SmartLink
    expect(s.shortUrl).toBe(`${cli.daemon.url}/e2e-game`)

    const visit = (ua: string) => fetch(s.shortUrl, { redirect: 'manual', headers: { 'user-agent': ua } })
    const iphone = await visit(IPHONE)
    expect(iphone.status).toBe(302)
    const ios = new URL(iphone.headers.get('location') ?? '')
    expect(`${ios.origin}${ios.pathname}`).toBe(IOS)
    expect(ios.searchParams.get('linkd_click')).toMatch(/^clk_[A-Za-z0-9_-]+$/)

    const android = await visit(ANDROID)
    expect(android.status).toBe(302)
    const play = new URL(android.headers.get('location') ?? '')
    expect(`${play.origin}${play.pathname}`).toBe('https://play.google.com/store/apps/details')
    expect(play.searchParams.get('id')).toBe('com.example.game')
    const referrer = new URLSearchParams(play.searchParams.get('referrer') ?? '')
    expect(referrer.get('linkd_click')).toMatch(/^clk_[A-Za-z0-9_-]+$/)
    expect(referrer.get('linkd_click')).not.toBe(ios.searchParams.get('linkd_click'))

    // Analytics reads flush the buffered clicks first.
    const stats = await cli.linkctl(['links', 'stats', s.id, '--json'])
    expect(stats.code, stats.stderr).toBe(0)
    const a = JSON.parse(stats.stdout) as LinkAnalytics
    expect(a.totalClicks).toBe(2)
    expect(a.platforms).toEqual([
      { platform: 'ios', clicks: 1, percentage: 50 },
      { platform: 'android', clicks: 1, percentage: 50 },
      { platform: 'desktop', clicks: 0, percentage: 0 },
      { platform: 'other', clicks: 0, percentage: 0 },
    ])

    const got = await cli.linkctl(['sl', 'get', 'e2e-game', '--json'])
    expect(got.code, got.stderr).toBe(0)
    expect(JSON.parse(got.stdout)).toMatchObject({
      id: s.id,
      clicks: 2,
      ios: { url: IOS },
      android: { url: PLAY },
    })
  })
})
