/**
 * End to end in a real browser: Debian's headless Chromium, driven by playwright-core, opens the
 * short URL of a password-protected link on the built linkd, types a wrong password (the 401
 * page with the form again), then the right one, and lands on the destination, served by a tiny
 * HTTP server on loopback (by a name the browser maps there). Needs chromium and `npm run build` first.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import type { Link } from '../../src/contract/links.js'
import { missingBinaries } from '../support/binaries.js'
import { launchChromium, LOCAL_SITE, LOCAL_SITE_RULE } from '../support/chromium.js'
import { startLinkdForCli, type LinkdForCli } from '../support/processes.js'

const noChromium = missingBinaries('chromium')

describe.skipIf(noChromium)('a password-protected link in headless Chromium', () => {
  let cli: LinkdForCli
  let destination: Server
  let destinationUrl = ''
  let browser: Browser

  beforeAll(async () => {
    cli = await startLinkdForCli('linkd-password-browser-')
    destination = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      res.end(`<!doctype html><title>Destination</title><h1 id="arrived">arrived at ${req.url}</h1>`)
    })
    await new Promise<void>((resolve) => destination.listen(0, '127.0.0.1', resolve))
    destinationUrl = `http://${LOCAL_SITE}:${(destination.address() as AddressInfo).port}/welcome`
    browser = await launchChromium([LOCAL_SITE_RULE])
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    destination?.close()
    await cli?.close()
  })

  it('shows the form, refuses a wrong password, and the right one lands on the destination', async () => {
    const res = await fetch(`${cli.daemon.url}/api/use/links`, {
      method: 'POST',
      headers: { authorization: `Bearer ${cli.env.LINKCTL_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ destinationUrl, password: 'open sesame', title: 'Beta <build>' }),
    })
    expect(res.status, await res.clone().text()).toBe(201)
    const link = (await res.json()) as Link

    const page = await browser.newPage()
    const shown = await page.goto(`${link.shortUrl}?from=browser`)
    expect(shown?.status()).toBe(200)
    expect(await page.locator('h1').textContent()).toBe('Beta <build>')
    await page.locator('input[name="password"]').fill('wrong guess')
    const [wrong] = await Promise.all([
      page.waitForNavigation(),
      page.locator('button[type="submit"]').click(),
    ])
    expect(wrong?.status()).toBe(401)
    expect(await page.locator('[role="alert"]').textContent()).toContain('Wrong password')

    await page.locator('input[name="password"]').fill('open sesame')
    await Promise.all([page.waitForURL(/\/welcome/), page.locator('button[type="submit"]').click()])
    expect(page.url()).toBe(`${destinationUrl}?from=browser`)
    expect(await page.locator('#arrived').textContent()).toBe('arrived at /welcome?from=browser')
    await page.close()
  })
})
