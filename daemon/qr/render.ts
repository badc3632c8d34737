/** QR code images (SVG and PNG) drawn in a style, with the `qrcode` encoder. */
import type { QR_FORMATS } from '../../src/contract/limits.js'
import type { StoredQrStyle } from './style.js'

export interface QrImage {
  contentType: 'image/svg+xml' | 'image/png'
  body: string | Buffer
}

/** `#rrggbb` or transparent as qrcode's `#rrggbbaa`. */
const rgba = (c: string) => (c === 'transparent' ? '#ffffff00' : `${c}ff`)

/** Renders `text` as a `size`-pixel QR code in `style`. (Logos: not drawn yet.) */
export async function renderQrCode(
  text: string,
  style: StoredQrStyle,
  format: (typeof QR_FORMATS)[number],
  size: number,
): Promise<QrImage> {
  // Loaded on the first QR request: the daemon does not need it to start.
  const { default: QRCode } = await import('qrcode')
  const options = {
    errorCorrectionLevel: style.errorCorrection,
    margin: style.margin,
    width: size,
    color: { dark: rgba(style.foreground), light: rgba(style.background) },
  }
  if (format === 'png')
    return { contentType: 'image/png', body: await QRCode.toBuffer(text, { ...options, type: 'png' }) }
  return { contentType: 'image/svg+xml', body: await QRCode.toString(text, { ...options, type: 'svg' }) }
}
