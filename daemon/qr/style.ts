/**
 * A QR code's style: merged from what a request sends over what is stored, and refused (400)
 * when scanners could not read the result (contrast, logo size).
 */
import type { QrStyle, QrStyleInput } from '../../src/contract/qr-codes.js'
import { QR_STYLE_DEFAULTS } from '../../src/contract/qr-codes.js'
import { createRequire } from 'node:module'
import type PngJs from 'pngjs'
import { QR_LIMITS } from '../../src/contract/limits.js'
import { validation } from '../http/errors.js'

let pngjs: typeof PngJs | undefined

/**
 * pngjs on first use, synchronously (a logo is checked inside `resolveQrStyle`): QR code stays
 * off the daemon's start-up path. Required from node_modules, so the bundle holds no copy.
 */
export function loadPng(): typeof PngJs.PNG {
  pngjs ??= createRequire(import.meta.url)('pngjs') as typeof PngJs
  return pngjs.PNG
}

/** A PNG logo's largest side in pixels: decoding more would cost memory, not quality. */
export const LOGO_PIXELS_MAX = 4096
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/** A style as stored: every field set, the logo as its data URL. */
export interface StoredQrStyle {
  foreground: string
  background: string
  errorCorrection: 'L' | 'M' | 'Q' | 'H'
  margin: number
  logo: string | null
}

export const DEFAULT_QR_STYLE: StoredQrStyle = { ...QR_STYLE_DEFAULTS, logo: null }

/** WCAG 2 relative luminance of `#rrggbb`. */
function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5)
}

/** WCAG 2 contrast ratio of two `#rrggbb` colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
  return (hi + 0.05) / (lo + 0.05)
}

/** A logo data URL's type and decoded bytes, or a 400 naming what is wrong. */
export function parseLogo(dataUrl: string): { contentType: 'image/png' | 'image/svg+xml'; data: Buffer } {
  const m = /^data:(image\/png|image\/svg\+xml)(;[^,]*)?,(.*)$/s.exec(dataUrl)
  if (!m) throw validation('style.logo', 'must be a data URL of a PNG or SVG image')
  const base64 = /;base64$/i.test(m[2] ?? '')
  const data = base64 ? Buffer.from(m[3]!, 'base64') : Buffer.from(decodeURIComponent(m[3]!), 'utf8')
  if (data.length > QR_LIMITS.logoBytesMax)
    throw validation('style.logo', `is ${data.length} bytes; at most ${QR_LIMITS.logoBytesMax} (100 KB)`)
  const contentType = m[1] as 'image/png' | 'image/svg+xml'
  if (contentType === 'image/png') {
    // The header alone, before any decoding: a few compressed bytes can claim a huge image.
    if (
      data.length < 24 ||
      !data.subarray(0, 8).equals(PNG_SIGNATURE) ||
      data.toString('latin1', 12, 16) !== 'IHDR'
    )
      throw validation('style.logo', 'is not a PNG image')
    const [width, height] = [data.readUInt32BE(16), data.readUInt32BE(20)]
    if (width === 0 || height === 0 || width > LOGO_PIXELS_MAX || height > LOGO_PIXELS_MAX)
      throw validation('style.logo', `is ${width}x${height} pixels; at most ${LOGO_PIXELS_MAX} a side`)
  } else if (!/<svg[\s>]/.test(data.toString('utf8'))) throw validation('style.logo', 'is not an SVG image')
  return { contentType, data }
}

/** A logo that would fail to draw is refused when stored, not on every image request. */
function checkLogoDecodes(dataUrl: string): void {
  const { contentType, data } = parseLogo(dataUrl)
  if (contentType !== 'image/png') return
  try {
    loadPng().sync.read(data)
  } catch (err) {
    throw validation('style.logo', `is not a readable PNG image (${(err as Error).message})`)
  }
}

/**
 * `input` over `base` (create: the defaults; update: the stored style), checked: a logo forces
 * error correction H; foreground and background need a contrast of at least 3:1 (a transparent
 * background is judged as white, the paper it is usually printed on).
 */
export function resolveQrStyle(
  input: QrStyleInput = {},
  base: StoredQrStyle = DEFAULT_QR_STYLE,
): StoredQrStyle {
  const style: StoredQrStyle = {
    foreground: (input.foreground ?? base.foreground).toLowerCase(),
    background: (input.background ?? base.background).toLowerCase(),
    errorCorrection: input.errorCorrection ?? base.errorCorrection,
    margin: input.margin ?? base.margin,
    logo: input.logo === undefined ? base.logo : input.logo,
  }
  if (style.logo !== null) {
    checkLogoDecodes(style.logo)
    style.errorCorrection = 'H'
  }
  const paper = style.background === 'transparent' ? '#ffffff' : style.background
  const ratio = contrastRatio(style.foreground, paper)
  if (ratio < QR_LIMITS.contrastMin)
    throw validation(
      'style',
      `foreground ${style.foreground} on background ${style.background} has a contrast of ${ratio.toFixed(2)}:1; scanners need at least ${QR_LIMITS.contrastMin}:1`,
    )
  return style
}

/** The style as the API returns it: the logo described, not echoed. */
export function publicQrStyle(s: StoredQrStyle): QrStyle {
  const logo = s.logo === null ? null : parseLogo(s.logo)
  return {
    foreground: s.foreground,
    background: s.background,
    errorCorrection: s.errorCorrection,
    margin: s.margin,
    logo: logo && { contentType: logo.contentType, bytes: logo.data.length },
  }
}
