/**
 * QR code images (SVG and PNG) drawn in a style: the `qrcode` package encodes the module matrix,
 * this file draws the SVG (and the logo, centred on a pad) itself; PNGs are drawn by the render
 * pool's workers (raster.ts). Limits: docs/reference/links.md (QR images); why workers:
 * docs/decisions/qr-rendering.md.
 */
import type { QR_FORMATS } from '../../src/contract/limits.js'
import { QR_LIMITS } from '../../src/contract/limits.js'
import { AppError, validation } from '../http/errors.js'
import { LOGO_SIDE_SHARE, logoBox, TRANSPARENT_PAD, type Matrix } from './raster.js'
import { renderPool, type RenderOutcome } from './render-pool.js'
import { parseLogo, type StoredQrStyle } from './style.js'

export interface QrImage {
  contentType: 'image/svg+xml' | 'image/png'
  body: string | Buffer
}

export { logoBox } from './raster.js'

/** Modules a side the image shows, quiet zone included: the smallest `size` in pixels. */
export async function qrModules(text: string, style: StoredQrStyle): Promise<Matrix> {
  // Loaded on the first QR request: the daemon does not need it to start.
  const { default: QRCode } = await import('qrcode')
  const qr = QRCode.create(text, { errorCorrectionLevel: style.errorCorrection })
  return { size: qr.modules.size, data: qr.modules.data }
}

/** Ends the renders under way (503): a shutting-down daemon does not wait for them. */
export const cancelRenders = (): Promise<void> => renderPool().cancel()

/** Renders `text` as a `size`-pixel QR code in `style`, its logo (if any) centred. */
export async function renderQrCode(
  text: string,
  style: StoredQrStyle,
  format: (typeof QR_FORMATS)[number],
  size: number,
): Promise<QrImage> {
  const matrix = await qrModules(text, style)
  const side = matrix.size + 2 * style.margin
  if (format === 'svg') return { contentType: 'image/svg+xml', body: svg(matrix, style, size) }
  if (size < side)
    throw validation(
      'size',
      `must be at least ${side} pixels for this QR code (${side} modules a side at error correction ${style.errorCorrection} with a margin of ${style.margin}), one pixel a module`,
    )
  const drawn = await renderPool().run({ kind: 'png', matrix, style, size })
  if (drawn.ok) return { contentType: 'image/png', body: drawn.png! }
  throw renderError(drawn)
}

/**
 * A stored logo that does not draw (in time): 422, the request itself being well formed. A
 * renderer that failed otherwise is the server's error (500, logged).
 */
function renderError(r: RenderOutcome & { ok: false }): Error {
  if (r.reason === 'failed') return new Error(`QR renderer: ${r.message}`)
  if (r.reason === 'cancelled')
    return new AppError('ServiceUnavailable', `${r.message}; retry`, undefined, { 'retry-after': '1' })
  const message = r.reason === 'timeout' ? r.message : `could not be drawn: ${r.message}`
  return new AppError('Unprocessable', `the QR code's logo ${message}`, [{ field: 'style.logo', message }])
}

/**
 * A logo is drawn once when stored, within the renderer's bounds: one that does not draw (in time)
 * is a 400, not a failure of every later image. An SVG is drawn as large as any image draws it; a
 * PNG's cost is its decoding, whatever the size.
 */
export async function checkLogoDraws(logo: string): Promise<void> {
  const largest = Math.floor(QR_LIMITS.sizeMax * LOGO_SIDE_SHARE)
  const box = parseLogo(logo).contentType === 'image/svg+xml' ? largest : QR_LIMITS.sizeMin
  const r = await renderPool().run({ kind: 'logo', logo, box })
  if (r.ok) return
  if (r.reason === 'failed' || r.reason === 'cancelled') throw renderError(r)
  throw validation(
    'style.logo',
    r.reason === 'timeout' ? `${r.message}; use a simpler image` : `could not be drawn: ${r.message}`,
  )
}

/** One `<path>` of the dark modules, as qrcode's own SVG renderer writes it (a stroke a run). */
function darkPath(m: Matrix, margin: number): string {
  let d = ''
  for (let row = 0; row < m.size; row++) {
    let col = 0
    let gap = 0
    let first = true
    while (col < m.size) {
      if (!m.data[row * m.size + col]) {
        col++
        gap++
        continue
      }
      let run = 0
      while (col + run < m.size && m.data[row * m.size + col + run]) run++
      d += first ? `M${col + margin} ${0.5 + row + margin}` : `m${gap} 0`
      d += `h${run}`
      first = false
      gap = 0
      col += run
    }
  }
  return d
}

function svg(m: Matrix, style: StoredQrStyle, size: number): string {
  const n = m.size + 2 * style.margin
  const bg =
    style.background === 'transparent' ? '' : `<path fill="${style.background}" d="M0 0h${n}v${n}H0z"/>`
  let logo = ''
  if (style.logo !== null) {
    const { contentType, data } = parseLogo(style.logo)
    const { pad, logo: box } = logoBox(m.size, style.margin)
    const padFill = style.background === 'transparent' ? TRANSPARENT_PAD : style.background
    // Re-encoded from the decoded bytes: nothing the client sent reaches the markup as text.
    logo =
      `<rect x="${pad.at}" y="${pad.at}" width="${pad.side}" height="${pad.side}" fill="${padFill}"/>` +
      `<image x="${box.at}" y="${box.at}" width="${box.side}" height="${box.side}" preserveAspectRatio="xMidYMid meet" href="data:${contentType};base64,${data.toString('base64')}"/>`
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${n} ${n}" shape-rendering="crispEdges">` +
    `${bg}<path stroke="${style.foreground}" d="${darkPath(m, style.margin)}"/>${logo}</svg>\n`
  )
}
