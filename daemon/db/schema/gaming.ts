import type { Generated } from 'kysely'

/**
 * The gaming tables: games (games), batches, events, sessions, players and their aggregates
 * (storage, ingest), GDPR deletions (gdpr). Migration 0006 and later: days are UTC day numbers,
 * money is BIGINT micro-units.
 * Kysely table types (daemon/db/schema.ts): timestamps are Unix ms; JSON columns are TEXT.
 */

export interface GamesTable {
  id: string
  organization_id: string
  slug: string
  name: string
  platform: string
  status: string
  module_analytics: number
  module_fraud: number
  module_skan: number
  raw_retention_days: number
  compacted_retention_months: number
  hmac_required: number
  replay_window_seconds: number
  /** Days after a click an app_install may be attributed to it (1-30; migration 0026). */
  attribution_window_days: Generated<number>
  sdk_key_hash: string
  sdk_key_last_four: string
  signing_secret: string
  raw_floor: Generated<number>
  compacted_floor_day: Generated<number>
  reporting_currency: Generated<string>
  whale_micros: Generated<number>
  dolphin_micros: Generated<number>
  created_at: number
  updated_at: number
}

/** One click id that credited an install (the first to commit); owned by the gaming storage. */
export interface InstallClickClaimsTable {
  organization_id: string
  click_id: string
  game_id: string
  player_id: string
  claimed_at: number
}

export interface GameBatchesTable {
  game_id: string
  batch_id: string
  response: string
  received_at: number
}

export interface GameEventsTable {
  game_id: string
  event_id: string
  event_type: string
  player_id: string
  session_id: string | null
  platform: string
  ts: number
  received_at: number
  batch_id: string
  revenue_type: string | null
  revenue_micros: number
  currency: string | null
  country: string | null
  ip: string | null
  device_fingerprint: string | null
  verdict: string
  data: string | null
}

export interface GameSessionsTable {
  game_id: string
  id: string
  player_id: string
  session_id: string | null
  started_at: number
  last_event_at: number
  ended_at: number | null
  events: number
}

export interface GamePlayersTable {
  game_id: string
  player_id: string
  first_seen_at: number
  install_day: number
  last_active_at: number
  last_active_day: number
  platform: string
  country: string | null
  device_fingerprint: string | null
  affiliate: string | null
  campaign: string | null
  source: string | null
  medium: string | null
  /** First-touch link (or smart link) and click id an install was attributed to (0026). */
  link_id: string | null
  click_id: string | null
  session_count: number
  event_count: number
  transactions: number
  revenue_iap_micros: number
  revenue_ad_micros: number
  revenue_subscription_micros: number
  revenue_total_micros: number
  first_purchase_at: number | null
  current_session_id: string | null
}

export interface GamePlayerDaysTable {
  game_id: string
  player_id: string
  day: number
  install_day: number
  events: number
  revenue_micros: number
  event_types: number
  /** The custom event names of the day, a JSON array; null: none (or a day stored before 0031). */
  custom_events: string | null
}

export interface GameDailyTable {
  game_id: string
  day: number
  active_players: number
  new_players: number
  paying_players: number
  sessions: number
  session_seconds: number
  events: number
  flagged_events: number
  transactions: number
  revenue_iap_micros: number
  revenue_ad_micros: number
  revenue_subscription_micros: number
}

export interface GameDailyDimsTable {
  game_id: string
  day: number
  dim: string
  value: string
  players: number
  new_players: number
  paying_players: number
  events: number
  transactions: number
  revenue_iap_micros: number
  revenue_ad_micros: number
  revenue_subscription_micros: number
  /** Sessions started that day by players of this value (profile dimensions; migration 0008). */
  sessions: number
}

export interface GameDayGapsTable {
  game_id: string
  kind: string
  day: number
  prev_day: number
  players: number
}

export interface GameAcquisitionDailyTable {
  game_id: string
  day: number
  dim: string
  value: string
  cost_micros: number
  commission_micros: number
  conversions: number
}

export interface GameDimPayingGapsTable {
  game_id: string
  dim: string
  value: string
  day: number
  prev_day: number
  players: number
}

export interface GamePlayerTotalsTable {
  game_id: string
  players: number
}

export interface GameCohortsTable {
  game_id: string
  install_day: number
  day_offset: number
  players: number
}

/** game_cohorts per acquisition value (dim platform, country, source, campaign, link; '' for none). */
export interface GameCohortDimsTable {
  game_id: string
  dim: string
  install_day: number
  day_offset: number
  value: string
  players: number
}

/**
 * Players of an install day who sent one event type (named, or a custom name) on the day
 * day_offset (a retention offset) after it; dim '' (value ''): all players, else per acquisition
 * value as game_cohort_dims.
 */
export interface GameCohortEventsTable {
  game_id: string
  event_type: string
  dim: string
  install_day: number
  day_offset: number
  value: string
  players: number
}

export interface GdprDeletionsTable {
  id: string
  organization_id: string
  game_id: string
  game_slug: string
  player_id: string
  reason: string
  status: string
  created_at: number
  started_at: number | null
  completed_at: number | null
  purged: string | null
  expires_at: number
}
