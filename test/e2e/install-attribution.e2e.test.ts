/**
 * End to end, from a click to an attributed install, with the built linkd and linkctl: Debian's
 * headless Chromium with an Android user agent opens a smart link's short URL and is sent to
 * Google Play with the click id in the install referrer (nothing beyond loopback is reached: no
 * host name resolves but 127.0.0.1, and the Play URL is read from the failed request); the game
 * sends a signed `app_install` with that click id and a purchase; `linkctl analytics attribution
 * --group-by link` shows the install and its revenue on the smart link. A second install with the
 * same click id and one with another organization's click id are not attributed. Needs chromium
 * and `npm run build` first.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import type { GameWithSecrets } from '../../src/contract/games.js'
import type { GameEventInput } from '../../src/contract/gaming.js'
import type { AttributionReport } from '../../src/contract/gaming-revenue.js'
import type { LinkAnalytics } from '../../src/contract/click-analytics.js'
import type { SmartLink } from '../../src/contract/smart-links.js'
import { missingBinaries } from '../support/binaries.js'
import { launchChromium, LOOPBACK_ONLY } from '../support/chromium.js'
import { batch, event, ingestionHeaders } from '../support/gaming.js'
import { LINKD, OWNER_KEY_RE, runBin, startLinkdForCli, type LinkdForCli } from '../support/processes.js'

const noChromium = missingBinaries('chromium')
const PLAY = 'https://play.google.com/store/apps/details?id=com.example.game'
const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.144 Mobile Safari/537.36'
const realClock = { clock: { now: () => Date.now() } }

describe.skipIf(noChromium)('install attribution from a click in headless Chromium', () => {
  let cli: LinkdForCli
  let browser: Browser
  let game: GameWithSecrets

  beforeAll(async () => {
    cli = await startLinkdForCli('linkd-attribution-e2e-')
    browser = await launchChromium([LOOPBACK_ONLY])
    const made = await cli.linkctl([
      'games',
      'create',
      '--name',
      'Attribution Arena',
      '--platform',
      'android',
      '--hmac',
      '--json',
    ])
    expect(made.code, made.stderr).toBe(0)
    game = JSON.parse(made.stdout) as GameWithSecrets
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await cli?.close()
  })

  async function linkctlJson<T>(args: string[]): Promise<T> {
    const r = await cli.linkctl([...args, '--json'])
    expect(r.code, r.stderr).toBe(0)
    return JSON.parse(r.stdout) as T
  }

  /** A smart link to the Play store, created with an organization's key. */
  async function smartLink(apiKey: string, gameId?: string): Promise<SmartLink> {
    const res = await fetch(`${cli.daemon.url}/api/use/smart-links`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        fallbackUrl: 'https://example.com/game',
        android: { url: PLAY },
        ...(gameId ? { gameId } : {}),
      }),
    })
    expect(res.status, await res.clone().text()).toBe(201)
    return (await res.json()) as SmartLink
  }

  /** Chromium as an Android phone opens the short URL: the Play URL it was sent to. */
  async function visit(shortUrl: string): Promise<URL> {
    const context = await browser.newContext({ userAgent: ANDROID })
    const page = await context.newPage()
    const left: string[] = []
    page.on('requestfailed', (r) => {
      if (r.redirectedFrom()?.url() === shortUrl) left.push(r.url())
    })
    await page.goto(shortUrl).catch(() => undefined)
    await context.close()
    expect(left).toHaveLength(1)
    return new URL(left[0]!)
  }

  function clickIdOf(play: URL): string {
    expect(`${play.origin}${play.pathname}`).toBe('https://play.google.com/store/apps/details')
    expect(play.searchParams.get('id')).toBe('com.example.game')
    const clickId = new URLSearchParams(play.searchParams.get('referrer') ?? '').get('linkd_click')
    expect(clickId).toMatch(/^clk_[A-Za-z0-9_-]+$/)
    return clickId!
  }

  /** A signed batch through the ingestion API, as the game's SDK sends it. */
  async function ingest(events: GameEventInput[]): Promise<void> {
    const wire = Buffer.from(JSON.stringify(batch(realClock, events)))
    const res = await fetch(`${cli.daemon.url}/api/v1/gaming/events`, {
      method: 'POST',
      headers: ingestionHeaders(game, { secret: game.signingSecret, timestamp: String(Date.now()), wire }),
      body: wire,
    })
    expect(res.status, await res.clone().text()).toBe(202)
    expect(await res.json()).toMatchObject({ accepted: events.length, rejected: 0 })
  }

  const install = (player: string, clickId: string) =>
    event(realClock, {
      event_type: 'app_install',
      player_id: player,
      session_id: `s-${player}`,
      platform: 'android',
      data: { click_id: clickId },
    })

  /** The by-link rows of `linkctl analytics attribution --group-by link`. */
  async function byLink(): Promise<AttributionReport['data']> {
    const r = await linkctlJson<AttributionReport>([
      'analytics',
      'attribution',
      game.id,
      '--group-by',
      'link',
    ])
    return r.data.filter((row) => /^(lnk|sml)_/.test(row.group))
  }

  it('a click, an install with its click id and a purchase: one install and its revenue on the smart link', async () => {
    const s = await smartLink(cli.env.LINKCTL_API_KEY!, game.id)
    const clickId = clickIdOf(await visit(s.shortUrl))
    // Analytics reads flush the buffered clicks: the click is stored before the install comes.
    const clicks = await linkctlJson<LinkAnalytics>(['links', 'stats', s.id])
    expect(clicks.totalClicks).toBe(1)

    await ingest([
      install('player-1', clickId),
      event(realClock, {
        event_type: 'purchase',
        player_id: 'player-1',
        session_id: 's-player-1',
        platform: 'android',
        data: { amount: 4.99, currency: 'USD' },
      }),
    ])
    const expected = { group: s.id, shortUrl: s.shortUrl, installs: 1, conversions: 1, revenue: 4.99 }
    expect(await byLink()).toEqual([expect.objectContaining(expected)])

    // Another organization's smart link, clicked the same way.
    const rival = await runBin(LINKD, ['org', 'create', 'rival'], { LINKD_DATA_DIR: join(cli.work, 'data') })
    expect(rival.code, rival.stderr).toBe(0)
    const rivalKey = OWNER_KEY_RE.exec(rival.stdout)![0]
    const rivalClick = clickIdOf(await visit((await smartLink(rivalKey)).shortUrl))
    await linkctlJson(['links', 'stats', s.id])

    // A second player with the same click id, and a click id of the other organization.
    await ingest([install('player-2', clickId), install('player-3', rivalClick)])
    expect(await byLink()).toEqual([expect.objectContaining(expected)])
    const stats = await linkctlJson<LinkAnalytics>(['links', 'stats', s.id])
    expect(stats.installs).toBe(1)
    expect(stats.installRevenue).toEqual([{ gameId: game.id, currency: 'USD', installs: 1, revenue: 4.99 }])
  }, 60_000)
})
