/**
 * The SKAN module's tables: campaigns and postbacks.
 * Kysely table types (daemon/db/schema.ts): timestamps are Unix ms; JSON columns are TEXT.
 */

export interface SkanCampaignsTable {
  id: string
  organization_id: string
  game_id: string
  game_slug: string
  name: string
  ad_network_id: string
  affiliate_id: string | null
  source_identifier: string | null
  lock_window_hours: number
  conversion_schema: string
  created_at: number
  updated_at: number
  /** When the campaign took its (ad network, source identifier) pair. */
  claimed_at: number
}

export interface SkanPostbacksTable {
  id: string
  campaign_id: string | null
  game_id: string | null
  received_at: number
  version: string
  verified: number
  transaction_id: string
  sequence_index: number
  ad_network_id: string
  source_identifier: string
  app_id: number
  did_win: number
  redownload: number
  fine_value: number | null
  coarse_value: string | null
  events: string
  payload: string
  /** 1 for a postback anyone could have posted (unverified or unmatched): kept within the caps. */
  held: number
  stored_bytes: number
}
