/**
 * The raw clicks export: every stored click of an organization (or one of its links) on the UTC
 * days of a range, page by page. Never an IP (none is stored) nor the visitor hash. qrCodeId: the
 * QR code resource a scan named, else the link's own code for a scan of the link's QR image.
 */
import { DAY_MS } from '../../clock.js'
import { rawColumns, type RawRows } from '../../raw-export.js'
import { RAW_CLICK_COLUMNS } from '../../../src/contract/raw-export.js'
import { qrCodeIdOf } from '../links/index.js'
import type { RawClickRow } from './raw-store.js'
import type { ClickStore } from './store.js'

const COLUMNS = rawColumns(RAW_CLICK_COLUMNS, {
  linkId: { nullable: false },
  ts: { kind: 'timestamp', nullable: false },
  device: { nullable: false },
  bot: { kind: 'boolean', nullable: false },
})
const LINK = RAW_CLICK_COLUMNS.indexOf('linkId')
const BOT = RAW_CLICK_COLUMNS.indexOf('bot')
const QR = RAW_CLICK_COLUMNS.indexOf('qrCodeId')

/** The clicks with firstDay ≤ ts < lastDay + 1 day (UTC day starts in ms), as export rows. */
export function rawClickRows(
  store: Pick<ClickStore, 'rawPages'>,
  organizationId: string,
  linkId: string | undefined,
  firstDay: number,
  lastDay: number,
): RawRows {
  async function* pages(): AsyncGenerator<RawClickRow[]> {
    for await (const page of store.rawPages(organizationId, linkId, firstDay, lastDay + DAY_MS)) {
      for (const r of page) {
        // The store's last cell, is_qr, is not a column of the file.
        const isQr = Number(r.pop()) === 1
        r[BOT] = Number(r[BOT]) === 1
        r[QR] = isQr ? (r[QR] ?? qrCodeIdOf(r[LINK] as string)) : null
      }
      yield page
    }
  }
  return { columns: COLUMNS, pages: pages() }
}
