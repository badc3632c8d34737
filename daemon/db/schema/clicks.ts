/**
 * The clicks module's tables: raw clicks and the counters each flush adds to.
 * Kysely table types (daemon/db/schema.ts): timestamps are Unix ms; JSON columns are TEXT.
 */

/** One redirect (migration 0003). No raw IP: visitor_hash is SHA-256 of daily salt + IP + UA. */
export interface ClicksTable {
  link_id: string
  organization_id: string
  ts: number
  visitor_hash: string
  is_bot: number
  bot_reason: string | null
  is_qr: number
  country: string | null
  region: string | null
  city: string | null
  device: string
  browser: string | null
  os: string | null
  referrer_domain: string | null
  utm_source: string | null
  utm_medium: string | null
  utm_campaign: string | null
  response_ms: number
  /** `clk_…` of a human visit of a smart link (migration 0024), else null. */
  click_id: string | null
  /** The variant's destination URL the visit went to (migration 0035), else null. */
  variant: string | null
  /** The QR code resource (`qr_…`) a human scan named (migration 0034), else null. */
  qr_code_id: string | null
}

export interface LinkClickHoursTable {
  link_id: string
  hour_start: number
  clicks: number
  bots: number
  qr_scans: number
  response_ms_sum: number
}

export interface LinkClickDimsTable {
  link_id: string
  day_start: number
  dim: string
  value: string
  clicks: number
}

export interface LinkClickDimsMonthTable {
  link_id: string
  month_start: number
  dim: string
  value: string
  clicks: number
}

export interface LinkDayVisitorsTable {
  link_id: string
  day_start: number
  visitor_hash: string
  clicks: number
}

/** An organization's clicks per UTC day, over all its links (migration 0016). */
export interface OrgClickDaysTable {
  organization_id: string
  day_start: number
  clicks: number
  bots: number
  qr_scans: number
}

export interface LinkDayTotalsTable {
  link_id: string
  day_start: number
  visitors: number
  single_click_visitors: number
}
