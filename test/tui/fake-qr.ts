/** The QR code reads of the TUI's fake client: codes held in memory. */
import type { QrCode } from '../../src/contract/qr-codes.js'
import type { TuiClient } from '../../src/tui/api.js'
import { page, T0 } from './fake-data.js'
import { apiError, notServed } from './fake-client.js'

type Serve = <T>(name: string, make: () => T) => Promise<T>

export function makeQrCode(
  id: string,
  owner: { linkId: string } | { smartLinkId: string },
  extra: Partial<QrCode> = {},
): QrCode {
  const shortUrl =
    'linkId' in owner
      ? `http://s.test/c${owner.linkId.slice(4)}`
      : `http://s.test/play${owner.smartLinkId.slice(4)}`
  return {
    id,
    linkId: 'linkId' in owner ? owner.linkId : null,
    smartLinkId: 'smartLinkId' in owner ? owner.smartLinkId : null,
    encodedUrl: `${shortUrl}?qr=${id}`,
    title: null,
    style: { foreground: '#000000', background: '#ffffff', errorCorrection: 'M', margin: 4, logo: null },
    scans: 0,
    createdAt: T0,
    updatedAt: T0,
    ...extra,
  }
}

export class FakeQr {
  /** Two codes on lnk_0 (the older one listed first, as a daemon may), one on sml_1. */
  codes: QrCode[] = [
    makeQrCode(
      'qr_old',
      { linkId: 'lnk_0' },
      { title: 'Poster', scans: 30, createdAt: '2026-11-01T10:00:00.000Z' },
    ),
    makeQrCode(
      'qr_new',
      { linkId: 'lnk_0' },
      {
        title: 'Flyer',
        scans: 12,
        createdAt: '2026-11-10T10:00:00.000Z',
        style: {
          foreground: '#1f2937',
          background: 'transparent',
          errorCorrection: 'H',
          margin: 4,
          logo: { contentType: 'image/png', bytes: 2048 },
        },
      },
    ),
    makeQrCode('qr_sml', { smartLinkId: 'sml_1' }, { title: 'Store sign', scans: 5 }),
  ]
  /** A daemon older than QR codes: their list answers 404 "no route". */
  missing = false
  constructor(private readonly serve: Serve) {}

  readonly qrCodes: TuiClient['qrCodes'] = {
    list: (q = {}) =>
      this.serve(`qrCodes.list ${q.linkId ?? q.smartLinkId ?? ''}`, () => {
        if (this.missing) throw apiError(404, 'no route GET /api/use/qr-codes')
        return page(
          this.codes.filter((c) =>
            q.linkId ? c.linkId === q.linkId : q.smartLinkId ? c.smartLinkId === q.smartLinkId : true,
          ),
          q,
        )
      }),
    create: notServed('qrCodes.create'),
    update: notServed('qrCodes.update'),
    delete: notServed('qrCodes.delete'),
  }
}
