/** A link's QR code drawn with text blocks: the one drawing of `linkctl links qr|share` and the TUI. */
import type { Link } from '../contract/links.js'
import { QR_MARKER } from '../contract/limits.js'

/** What a scanned code opens: the short URL marked as a QR scan. */
export const qrTarget = (link: Pick<Link, 'shortUrl'>) => `${link.shortUrl}?${QR_MARKER}=1`

/**
 * The QR code of a link drawn with text blocks for a terminal. Asking the API for the code
 * too records its creation (qr_code.created) and checks the key's scope.
 */
export async function terminalQr(
  client: { links: { qr(id: string, query: { format: 'svg' }): Promise<unknown> } },
  link: Pick<Link, 'id' | 'shortUrl'>,
): Promise<string> {
  await client.links.qr(link.id, { format: 'svg' })
  return drawQr(qrTarget(link))
}

/** Any text (a QR code resource's encodedUrl) as a QR code of text blocks, black on white. */
export async function drawQr(text: string): Promise<string> {
  const { default: QRCode } = await import('qrcode')
  return QRCode.toString(text, { type: 'terminal', small: true })
}
