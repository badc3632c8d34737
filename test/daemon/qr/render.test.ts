/**
 * QR images as a scanner reads them: every PNG is decoded by jsQR (an independent decoder) and
 * must give back the exact URL, across sizes, error correction levels, colours and logos.
 */
import { describe, expect, it } from 'vitest'
import { QR_LIMITS } from '../../../src/contract/limits.js'
import { AppError } from '../../../daemon/http/errors.js'
import { checkLogoDraws, renderQrCode } from '../../../daemon/qr/render.js'
import {
  contrastRatio,
  LOGO_PIXELS_MAX,
  resolveQrStyle,
  type StoredQrStyle,
} from '../../../daemon/qr/style.js'
import { dataUrl, decodeQrPng, pngLogo, solidPng, SVG_LOGO } from '../../support/qr-images.js'

const URL = 'http://127.0.0.1:8080/AbC123x?qr=qr_xxxxxxxxxxxxxxxxxxxx'
const LEVELS = ['L', 'M', 'Q', 'H'] as const
const PAIRS = {
  'dark on light': { foreground: '#000000', background: '#ffffff' },
  'a coloured pair at 3:1': { foreground: '#1f5f8b', background: '#f7d794' },
  'transparent (on white)': { foreground: '#3b0764', background: 'transparent' },
} as const

async function png(style: StoredQrStyle, size: number): Promise<Buffer> {
  const image = await renderQrCode(URL, style, 'png', size)
  expect(image.contentType).toBe('image/png')
  const body = image.body as Buffer
  expect([body.readUInt32BE(16), body.readUInt32BE(20)]).toEqual([size, size])
  return body
}

/** The AppError `fn` throws (it must throw one). */
function refusal(fn: () => unknown): AppError {
  try {
    fn()
  } catch (err) {
    expect(err).toBeInstanceOf(AppError)
    return err as AppError
  }
  throw new Error('expected a refusal')
}

describe('QR PNGs decode to the URL', () => {
  it('the coloured pair is a real ≥ 3:1 pair', () => {
    expect(
      contrastRatio(PAIRS['a coloured pair at 3:1'].foreground, PAIRS['a coloured pair at 3:1'].background),
    ).toBeGreaterThanOrEqual(3)
  })

  for (const size of [64, 300, 2048])
    for (const level of LEVELS)
      for (const [name, colours] of Object.entries(PAIRS))
        it(`${size} px, level ${level}, ${name}`, async () => {
          const style = resolveQrStyle({ ...colours, errorCorrection: level })
          expect(decodeQrPng(await png(style, size))).toBe(URL)
        })

  for (const size of [64, 300, 2048])
    it(`${size} px with a PNG logo of exactly 100 KB (level H forced)`, async () => {
      const logo = pngLogo(QR_LIMITS.logoBytesMax)
      const style = resolveQrStyle({ logo: dataUrl('image/png', logo), errorCorrection: 'L' })
      expect(style.errorCorrection).toBe('H')
      const body = await png(style, size)
      expect(decodeQrPng(body)).toBe(URL)
    })

  it('300 px with an SVG logo (rasterised) and on a transparent background', async () => {
    const style = resolveQrStyle({ logo: dataUrl('image/svg+xml', SVG_LOGO), background: 'transparent' })
    expect(decodeQrPng(await png(style, 300))).toBe(URL)
  })
})

describe('QR logos are drawn', () => {
  it('PNG: the logo sits centred on its pad; a transparent background gets a white pad', async () => {
    const { default: pngjs } = await import('pngjs')
    const style = resolveQrStyle({
      logo: dataUrl('image/png', pngLogo(20_000, 100)),
      background: 'transparent',
    })
    const shot = pngjs.PNG.sync.read(await png(style, 300))
    const at = (x: number, y: number) => [...shot.data.subarray((y * 300 + x) * 4, (y * 300 + x) * 4 + 4)]
    const [r, g, b, a] = at(150, 150)
    expect(a).toBe(255)
    expect(r).toBeGreaterThan(190) // the logo's red disc
    expect(g! + b!).toBeLessThan(140)
    expect(at(0, 0)[3]).toBe(0) // the background stays transparent
    // The pad's corner: outside the disc, inside the pad: opaque white.
    expect(at(150 - 40, 150 - 40)).toEqual([255, 255, 255, 255])
  })

  it('SVG: the logo is an <image> of its own bytes on a pad, after the modules', async () => {
    const logo = pngLogo(5_000, 30)
    const image = await renderQrCode(URL, resolveQrStyle({ logo: dataUrl('image/png', logo) }), 'svg', 300)
    const body = image.body as string
    expect(body).toMatch(
      /<rect x="\d+" y="\d+" width="(\d+)" height="\1" fill="#ffffff"\/><image [^>]*href="data:image\/png;base64,([^"]+)"\/><\/svg>\n$/,
    )
    expect(Buffer.from(/base64,([^"]+)"/.exec(body)![1]!, 'base64')).toEqual(logo)
  })

  it('the pad covers at most 0.4 of the side (16% of the modules) at every QR version', async () => {
    const { logoBox } = await import('../../../daemon/qr/render.js')
    for (let version = 1; version <= 40; version++) {
      const modules = 17 + 4 * version
      const { pad, logo } = logoBox(modules, 4)
      expect(pad.side / modules).toBeLessThanOrEqual(0.4)
      expect(pad.at * 2 + pad.side).toBe(modules + 8) // centred on whole modules
      expect(logo.side).toBeGreaterThan(0)
    }
  })
})

describe('QR refusals', () => {
  it('contrast: the closest colours above 3:1 on white pass, the closest below are a 400', () => {
    // No #rrggbb has exactly 3:1 on white (nor on black); these two are the nearest either side.
    expect(contrastRatio('#e969a1', '#ffffff')).toBeGreaterThanOrEqual(3)
    expect(contrastRatio('#e969a1', '#ffffff')).toBeLessThan(3.000001)
    expect(resolveQrStyle({ foreground: '#E969A1' }).foreground).toBe('#e969a1')
    expect(contrastRatio('#989a30', '#ffffff')).toBeGreaterThan(2.999999)
    const e = refusal(() => resolveQrStyle({ foreground: '#989a30', background: 'transparent' }))
    expect(e.type).toBe('ValidationError')
    expect(e.message).toBe(
      'style: foreground #989a30 on background transparent has a contrast of 3.00:1; scanners need at least 3:1',
    )
  })

  it('a logo of 100 KB passes; one byte more is a 400', () => {
    expect(resolveQrStyle({ logo: dataUrl('image/png', pngLogo(102_400)) }).logo).not.toBeNull()
    const e = refusal(() => resolveQrStyle({ logo: dataUrl('image/png', pngLogo(102_401)) }))
    expect(e.type).toBe('ValidationError')
    expect(e.message).toBe('style.logo is 102401 bytes; at most 102400 (100 KB)')
  })

  it('a data URL that is not a PNG or SVG image is a 400', () => {
    for (const [logo, message] of [
      ['data:text/plain;base64,aGVsbG8=', 'style.logo must be a data URL of a PNG or SVG image'],
      [dataUrl('image/png', 'GIF89a not really'), 'style.logo is not a PNG image'],
      [
        dataUrl('image/svg+xml', '<html>hello</html>'),
        'style.logo is not an SVG image: its root must be <svg xmlns="http://www.w3.org/2000/svg">',
      ],
    ] as const) {
      const e = refusal(() => resolveQrStyle({ logo }))
      expect(e.type).toBe('ValidationError')
      expect(e.message).toBe(message)
    }
  })

  it('a PNG header over a body that does not decode is a 400 when the logo is stored', async () => {
    const broken = dataUrl(
      'image/png',
      Buffer.concat([pngLogo(2_000, 10).subarray(0, 40), Buffer.alloc(100, 7)]),
    )
    expect(resolveQrStyle({ logo: broken }).logo).toBe(broken) // the header alone is fine
    const e = await checkLogoDraws(broken).catch((err: unknown) => err as AppError)
    expect(e).toBeInstanceOf(AppError)
    expect((e as AppError).type).toBe('ValidationError')
    expect((e as AppError).message).toMatch(/^style\.logo: could not be drawn: ./)
  })

  it(`a PNG logo over ${LOGO_PIXELS_MAX} pixels a side is a 400 before anything is decoded`, () => {
    const wide = solidPng(LOGO_PIXELS_MAX, 1)
    expect(resolveQrStyle({ logo: dataUrl('image/png', wide) }).logo).not.toBeNull()
    const huge = Buffer.from(wide)
    huge.writeUInt32BE(100_000, 20) // claims 1024 x 100,000: only the header is read
    const e = refusal(() => resolveQrStyle({ logo: dataUrl('image/png', huge) }))
    expect(e.message).toBe('style.logo is 1024x100000 pixels; at most 1024 a side')
    // A real 4,096 px square: a few KB of bytes, 64 MB of pixels.
    const square = solidPng(4096, 4096)
    expect(square.length).toBeLessThan(QR_LIMITS.logoBytesMax)
    expect(refusal(() => resolveQrStyle({ logo: dataUrl('image/png', square) })).message).toBe(
      'style.logo is 4096x4096 pixels; at most 1024 a side',
    )
  })

  it('a PNG smaller than one pixel a module is a 400 naming the smallest size; that size decodes', async () => {
    const long = `https://links.example-company-marketing.com/${'a'.repeat(150)}?qr=qr_xxxxxxxxxxxxxxxxxxxx`
    const style = resolveQrStyle({ errorCorrection: 'H' })
    const e = await renderQrCode(long, style, 'png', 88).catch((err: unknown) => err as AppError)
    expect(e).toBeInstanceOf(AppError)
    expect((e as AppError).type).toBe('ValidationError')
    expect((e as AppError).message).toBe(
      'size must be at least 89 pixels for this QR code (89 modules a side at error correction H with a margin of 4), one pixel a module',
    )
    const smallest = await renderQrCode(long, style, 'png', 89)
    expect(decodeQrPng(smallest.body as Buffer)).toBe(long)
  })
})
