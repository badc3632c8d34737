/**
 * QR SVGs as a browser draws them: Debian's headless Chromium, driven by playwright-core, shows
 * each SVG at 300 px in an <img> on a white page; the screenshot is decoded by jsQR and must give
 * back the exact URL, without a logo and with PNG and SVG logos. Needs chromium.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { QR_LIMITS } from '../../src/contract/limits.js'
import { renderQrCode } from '../../daemon/qr/render.js'
import { resolveQrStyle } from '../../daemon/qr/style.js'
import type { QrStyleInput } from '../../src/contract/qr-codes.js'
import { missingBinaries } from '../support/binaries.js'
import { launchChromium } from '../support/chromium.js'
import { dataUrl, decodeQrPng, pngLogo, SVG_LOGO } from '../support/qr-images.js'

const noChromium = missingBinaries('chromium')
/** The parts of the page's <img> read here (the tests compile without the DOM types). */
type Img = { decode(): Promise<void>; naturalWidth: number; naturalHeight: number }
const URL = 'http://127.0.0.1:8080/AbC123x?qr=qr_xxxxxxxxxxxxxxxxxxxx'

describe.skipIf(noChromium)('QR SVGs drawn by headless Chromium', () => {
  let browser: Browser

  beforeAll(async () => {
    browser = await launchChromium()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
  })

  /** The SVG of `style` as Chromium paints it at 300 px, as a PNG screenshot. */
  async function paint(style: QrStyleInput): Promise<Buffer> {
    const image = await renderQrCode(URL, resolveQrStyle(style), 'svg', 300)
    expect(image.contentType).toBe('image/svg+xml')
    const page = await browser.newPage({ viewport: { width: 400, height: 400 } })
    await page.setContent(
      `<!doctype html><body style="margin:20px;background:#fff"><img id="qr" src="${dataUrl('image/svg+xml', image.body)}"></body>`,
    )
    const img = page.locator('#qr')
    await img.evaluate((el) => (el as unknown as Img).decode())
    expect(
      await img.evaluate((el) => [(el as unknown as Img).naturalWidth, (el as unknown as Img).naturalHeight]),
    ).toEqual([300, 300])
    const shot = await img.screenshot()
    await page.close()
    return shot
  }

  const cases: [string, QrStyleInput][] = [
    ['no logo', {}],
    [
      'no logo, colours at 3:1 on a transparent background',
      { foreground: '#3b0764', background: 'transparent' },
    ],
    ['a PNG logo of exactly 100 KB', { logo: dataUrl('image/png', pngLogo(QR_LIMITS.logoBytesMax)) }],
    ['an SVG logo', { logo: dataUrl('image/svg+xml', SVG_LOGO) }],
    [
      'an SVG logo on a transparent background',
      { logo: dataUrl('image/svg+xml', SVG_LOGO), background: 'transparent' },
    ],
  ]
  for (const [name, style] of cases)
    it(`decodes to the URL with ${name}`, async () => {
      expect(decodeQrPng(await paint(style))).toBe(URL)
    })

  it('draws the logo: the centre of the painted code is the logo, not modules', async () => {
    const { default: pngjs } = await import('pngjs')
    const shot = pngjs.PNG.sync.read(await paint({ logo: dataUrl('image/svg+xml', SVG_LOGO) }))
    const centre = (Math.floor(shot.height / 2) * shot.width + Math.floor(shot.width / 2)) * 4
    // Inside the logo's white ring: its blue square (modules are black or white).
    expect([...shot.data.subarray(centre, centre + 3)]).toEqual([0x1d, 0x4e, 0xd8])
  })
})
