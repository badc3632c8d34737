import type { QrQuery } from '../../../src/contract/links.js'

export interface QrImage {
  contentType: 'image/svg+xml' | 'image/png'
  body: string | Buffer
}

/** Default PNG width (and SVG width attribute) in pixels. */
export const QR_DEFAULT_SIZE = 300

/** Renders `text` as a QR code (error correction M, 4-module quiet zone). */
export async function renderQr(
  text: string,
  format: NonNullable<QrQuery['format']>,
  size: number = QR_DEFAULT_SIZE,
): Promise<QrImage> {
  // Loaded on the first QR request: it is not needed for the daemon to start (start-up time).
  const { default: QRCode } = await import('qrcode')
  const options = { errorCorrectionLevel: 'M' as const, margin: 4, width: size }
  if (format === 'png')
    return { contentType: 'image/png', body: await QRCode.toBuffer(text, { ...options, type: 'png' }) }
  return { contentType: 'image/svg+xml', body: await QRCode.toString(text, { ...options, type: 'svg' }) }
}
