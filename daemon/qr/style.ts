/**
 * A QR code's style: merged from what a request sends over what is stored, and refused (400)
 * when scanners could not read the result (contrast, logo size).
 */
import type { QrStyle, QrStyleInput } from '../../src/contract/qr-codes.js'
import { QR_STYLE_DEFAULTS } from '../../src/contract/qr-codes.js'
import { QR_LIMITS } from '../../src/contract/limits.js'
import { validation } from '../http/errors.js'
import { logoData, pngSize } from './logo.js'
import { checkSvgLogo, SvgLogoError } from './svg-logo.js'

/**
 * A PNG logo's largest side in pixels when stored: the largest image (2,048 px) gives its logo a
 * box of at most 819 px (0.4 of the side), so more would cost decoding time, not quality.
 */
export const LOGO_PIXELS_MAX = 1024

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

/** A stored logo's type and decoded bytes (read as stored: reading never applies the write bounds). */
export function parseLogo(dataUrl: string): { contentType: 'image/png' | 'image/svg+xml'; data: Buffer } {
  return logoData(dataUrl) ?? validationThrow('must be a data URL of a PNG or SVG image')
}

const validationThrow = (message: string): never => {
  throw validation('style.logo', message)
}

/**
 * A new logo's bounds, checked without decoding it: its bytes; a PNG's header (size); an SVG's
 * markup (the subset of svg-logo.ts). Whether it then draws in time is checkLogoDraws (render.ts).
 */
function checkLogo(dataUrl: string): void {
  const { contentType, data } = parseLogo(dataUrl)
  if (data.length > QR_LIMITS.logoBytesMax)
    validationThrow(`is ${data.length} bytes; at most ${QR_LIMITS.logoBytesMax} (100 KB)`)
  if (contentType === 'image/png') {
    const header = pngSize(data) ?? validationThrow('is not a PNG image')
    const { width, height } = header
    if (width === 0 || height === 0 || width > LOGO_PIXELS_MAX || height > LOGO_PIXELS_MAX)
      validationThrow(`is ${width}x${height} pixels; at most ${LOGO_PIXELS_MAX} a side`)
    return
  }
  try {
    checkSvgLogo(data)
  } catch (err) {
    if (err instanceof SvgLogoError) validationThrow(err.message)
    throw err
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
  // A new logo is checked; a stored one stays as it is (it was checked by the bounds of its day).
  if (input.logo) checkLogo(input.logo)
  if (style.logo !== null) style.errorCorrection = 'H'
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
