/**
 * iPadOS Safari says it is a Mac. In Debian's headless Chromium (playwright-core) with Safari's
 * Mac user agent, a smart link's device page runs under its CSP and sends a touch screen (5
 * points, an iPad) to the iOS target, a Mac (0) and a browser without script to the desktop one;
 * `linkctl sl stats` counts each visit once, on its platform. Needs chromium and the build.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import type { LinkAnalytics } from '../../src/contract/click-analytics.js'
import type { SmartLink } from '../../src/contract/smart-links.js'
import { missingBinaries } from '../support/binaries.js'
import { launchChromium, LOCAL_SITE, LOCAL_SITE_RULE } from '../support/chromium.js'
import { startLinkdForCli, type LinkdForCli } from '../support/processes.js'

const SAFARI_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15'

describe.skipIf(missingBinaries('chromium'))('a smart link opened by Safari that says it is a Mac', () => {
  let cli: LinkdForCli
  let stores: Server
  let base = ''
  let browser: Browser
  let smart: SmartLink

  beforeAll(async () => {
    cli = await startLinkdForCli('linkd-ipad-browser-')
    stores = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      res.end(`<!doctype html><title>Store</title><h1 id="store">${req.url?.split('?')[0]}</h1>`)
    })
    await new Promise<void>((resolve) => stores.listen(0, '127.0.0.1', resolve))
    base = `http://${LOCAL_SITE}:${(stores.address() as AddressInfo).port}`
    browser = await launchChromium([LOCAL_SITE_RULE])
    const created = await cli.linkctl([
      'sl',
      'create',
      '--fallback',
      `${base}/web`,
      '--ios',
      `${base}/app-store`,
      '--desktop',
      `${base}/steam`,
      '--json',
    ])
    expect(created.code, created.stderr).toBe(0)
    smart = JSON.parse(created.stdout) as SmartLink
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    stores?.close()
    await cli?.close()
  })

  /** Where a visit ends: the store page's path, and the click id it was given. */
  async function land(touchPoints: number, javaScriptEnabled = true) {
    const context = await browser.newContext({ userAgent: SAFARI_MAC, javaScriptEnabled })
    await context.addInitScript((points) => {
      const { navigator } = globalThis as unknown as { navigator: object }
      Object.defineProperty(Object.getPrototypeOf(navigator), 'maxTouchPoints', { get: () => points })
    }, touchPoints)
    const refused: string[] = []
    const page = await context.newPage()
    page.on('console', (m) => m.type() === 'error' && refused.push(m.text()))
    await page.goto(`${smart.shortUrl}?utm_source=mail`)
    await page.waitForSelector('#store')
    const url = new URL(page.url())
    await context.close()
    expect(refused).toEqual([])
    return { path: url.pathname, clickId: url.searchParams.get('linkd_click') }
  }

  it('an iPad lands on the App Store target, a Mac and a script-less browser on the desktop one', async () => {
    expect(await land(5)).toEqual({ path: '/app-store', clickId: expect.stringMatching(/^clk_/) })
    expect(await land(0)).toEqual({ path: '/steam', clickId: expect.stringMatching(/^clk_/) })
    expect(await land(5, false)).toEqual({ path: '/steam', clickId: expect.stringMatching(/^clk_/) })
    const stats = await cli.linkctl(['sl', 'stats', smart.shortCode, '--json'])
    expect(stats.code, stats.stderr).toBe(0)
    const a = JSON.parse(stats.stdout) as LinkAnalytics
    expect(a.totalClicks).toBe(3)
    expect(a.platforms).toEqual([
      { platform: 'ios', clicks: 1, percentage: 33.33 },
      { platform: 'android', clicks: 0, percentage: 0 },
      { platform: 'desktop', clicks: 2, percentage: 66.67 },
      { platform: 'other', clicks: 0, percentage: 0 },
    ])
  })
})
