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
  const { default: QRCode } = await import('qrcode')
  return QRCode.toString(qrTarget(link), { type: 'terminal', small: true })
}
