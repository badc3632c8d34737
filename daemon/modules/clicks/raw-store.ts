import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema.js'
import { timePages } from '../../db/time-pages.js'

/** One stored click as the raw export reads it (no IP, no visitor hash; flags as 0/1). */
export interface RawClickRow {
  [column: string]: string | number | boolean | null
  clickId: string | null
  linkId: string
  ts: number
  country: string | null
  region: string | null
  device: string
  browser: string | null
  os: string | null
  referrer: string | null
  utmSource: string | null
  utmMedium: string | null
  utmCampaign: string | null
  bot: number | boolean
  isQr: number
  qrCodeId: string | null
  variant: string | null
}

/**
 * An organization's clicks (or one link's) with from ≤ ts < to, by time, in pages of up to about
 * `pageSize` (indexes clicks_org_ts and clicks_link_ts). Raw clicks have no key: time pages.
 */
export function rawClickPages(
  db: Kysely<Database>,
  organizationId: string,
  linkId: string | undefined,
  from: number,
  to: number,
  pageSize = 10_000,
): AsyncGenerator<RawClickRow[]> {
  const base = () => {
    const q = db
      .selectFrom('clicks')
      .select([
        'click_id as clickId',
        'link_id as linkId',
        'ts',
        'country',
        'region',
        'device',
        'browser',
        'os',
        'referrer_domain as referrer',
        'utm_source as utmSource',
        'utm_medium as utmMedium',
        'utm_campaign as utmCampaign',
        'is_bot as bot',
        'is_qr as isQr',
        'qr_code_id as qrCodeId',
        'variant',
      ])
    return linkId === undefined
      ? q.where('organization_id', '=', organizationId)
      : q.where('link_id', '=', linkId).where('organization_id', '=', organizationId)
  }
  // PostgreSQL answers BIGINT as text.
  const row = (r: RawClickRow): RawClickRow => {
    r.ts = Number(r.ts)
    return r
  }
  return timePages<RawClickRow>(
    {
      after: async (after, before, limit) =>
        (
          await base().where('ts', '>', after).where('ts', '<', before).orderBy('ts').limit(limit).execute()
        ).map(row),
      at: async (ts) => (await base().where('ts', '=', ts).execute()).map(row),
      timeOf: (r) => r.ts,
    },
    from,
    to,
    pageSize,
  )
}
