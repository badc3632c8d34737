import type { Kysely } from 'kysely'
import { EXPORT_PAGE_ROWS, type ArrayRows } from '../../db/array-rows.js'
import type { Database } from '../../db/schema.js'
import { timePages } from '../../db/time-pages.js'
import { RAW_CLICK_COLUMNS } from '../../../src/contract/raw-columns.js'

/**
 * One stored click as the raw export reads it: its cells in the order of RAW_CLICK_COLUMNS (ts in
 * Unix ms, bot as 0/1), then is_qr (0/1) as one more cell. No IP, no visitor hash.
 */
export type RawClickRow = Array<string | number | boolean | null>

/** The stored column of each export column. */
const SOURCE = {
  clickId: 'click_id',
  linkId: 'link_id',
  ts: 'ts',
  country: 'country',
  region: 'region',
  device: 'device',
  browser: 'browser',
  os: 'os',
  referrer: 'referrer_domain',
  utmSource: 'utm_source',
  utmMedium: 'utm_medium',
  utmCampaign: 'utm_campaign',
  bot: 'is_bot',
  qrCodeId: 'qr_code_id',
  variant: 'variant',
} as const
const SELECT = [...RAW_CLICK_COLUMNS.map((c) => SOURCE[c]), 'is_qr' as const]
const TS = RAW_CLICK_COLUMNS.indexOf('ts')

/**
 * An organization's clicks (or one link's) with from ≤ ts < to, by time, in pages of up to about
 * `pageSize` (indexes clicks_org_ts and clicks_link_ts). Raw clicks have no key: time pages.
 */
export function rawClickPages(
  db: Kysely<Database>,
  arrays: ArrayRows,
  organizationId: string,
  linkId: string | undefined,
  from: number,
  to: number,
  pageSize = EXPORT_PAGE_ROWS,
): AsyncGenerator<RawClickRow[]> {
  const base = () => {
    const q = db.selectFrom('clicks').select(SELECT)
    return linkId === undefined
      ? q.where('organization_id', '=', organizationId)
      : q.where('link_id', '=', linkId).where('organization_id', '=', organizationId)
  }
  const read = async (query: { compile(): Parameters<ArrayRows>[0] }) =>
    (await arrays(query.compile())) as RawClickRow[]
  return timePages<RawClickRow>(
    {
      after: (after, before, limit) =>
        read(base().where('ts', '>', after).where('ts', '<', before).orderBy('ts').limit(limit)),
      at: (ts) => read(base().where('ts', '=', ts)),
      timeOf: (r) => r[TS] as number,
    },
    from,
    to,
    pageSize,
  )
}
