import type { Generated } from 'kysely'

/** Kysely table types. Timestamps are Unix ms; JSON columns are TEXT. */
export interface OrganizationsTable {
  id: string
  name: string
  plan: string
  created_at: number
  updated_at: number
}

export interface ApiKeysTable {
  id: string
  organization_id: string
  name: string
  description: string | null
  prefix: string
  environment: string
  key_hash: string
  last_four: string
  permissions: string
  request_limit: number
  time_period: string
  allowed_ips: string
  allowed_origins: string
  expires_at: number | null
  status: string
  revoked_at: number | null
  created_at: number
  updated_at: number
  last_used_at: number | null
  last_used_ip: string | null
  total_requests: Generated<number>
  usage_day: string | null
  requests_today: Generated<number>
  usage_month: string | null
  requests_this_month: Generated<number>
}

export interface ApiKeyActivityTable {
  id: string
  key_id: string
  organization_id: string
  ts: number
  endpoint: string
  method: string
  status_code: number
  response_time_ms: number
  ip: string | null
  user_agent: string | null
  referrer: string | null
  country: string | null
  error: string | null
}

export interface IdempotencyRecordsTable {
  owner: string
  idem_key: string
  request_hash: string
  status_code: number
  content_type: string | null
  /** Sealed with the master key (SecretBox) since migration 0007. */
  body: string
  created_at: number
  /** Top-level "id" of the stored response, in the clear (migration 0007). */
  resource_id: string | null
}

export interface JobRunsTable {
  name: string
  lease_owner: string | null
  lease_until: Generated<number>
  last_run_at: number | null
  last_status: string | null
  last_error: string | null
  last_duration_ms: number | null
  run_count: Generated<number>
}

export interface SchemaMigrationsTable {
  version: number
  name: string
  applied_at: number
}

/** The quotas' shared counters (PostgreSQL; migration 0015): one row per bucket and window. */
export interface RateLimitCountersTable {
  bucket: string
  window_start: number
  window_end: number
  count: number
}

export interface LinksTable {
  id: string
  organization_id: string
  domain_key: string
  custom_domain_id: string | null
  short_code: string
  destination_url: string
  title: string | null
  status: string
  redirect_type: number
  tags: string
  metadata: string
  expires_at: number | null
  clicks: Generated<number>
  qr_created_at: number | null
  created_at: number
  updated_at: number
}

export interface LinkTagsTable {
  link_id: string
  organization_id: string
  tag: string
}

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

/** Gaming (migration 0006). Days are UTC day numbers; money is BIGINT micro-units. */
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

/** Custom domains and their certificates (migration 0005). */
export interface CustomDomainsTable {
  id: string
  organization_id: string
  domain: string
  verification_status: string
  verification_method: string
  challenge_token: string
  record_checks: string | null
  last_checked_at: number | null
  verified_at: number | null
  is_default: Generated<number>
  root_redirect_url: string | null
  ssl_status: string | null
  ssl_error: string | null
  cert_pem: string | null
  cert_key_enc: string | null
  cert_issuer: string | null
  cert_serial: string | null
  cert_not_before: number | null
  ssl_expires_at: number | null
  ssl_renewed_at: number | null
  created_at: number
  updated_at: number
}

export interface AcmeAccountsTable {
  directory_url: string
  account_key_enc: string
  account_url: string | null
  created_at: number
}

export interface AcmeChallengesTable {
  token: string
  key_authorization: string
  expires_at: number
}

export interface WebhooksTable {
  id: string
  organization_id: string
  name: string
  description: string | null
  url: string
  events: string
  retry_policy: string
  max_retries: number
  timeout_seconds: number
  headers: string
  secret_sealed: string
  status: string
  consecutive_failures: Generated<number>
  created_at: number
  updated_at: number
}

/** The webhook outbox (migration 0004): one row per event per subscribed webhook. */
export interface WebhookDeliveriesTable {
  id: string
  webhook_id: string
  organization_id: string
  event_id: string
  event: string
  payload: string
  is_test: Generated<number>
  status: string
  attempts: Generated<number>
  max_attempts: number
  next_attempt_at: number | null
  locked_until: Generated<number>
  last_status_code: number | null
  last_error: string | null
  last_duration_ms: number | null
  last_attempt_at: number | null
  created_at: number
  completed_at: number | null
}

export interface FraudRulesTable {
  id: string
  game_id: string
  name: string
  action: string
  field: string
  operator: string
  value: string
  priority: number
  cooldown_minutes: number
  enabled: number
  template: string | null
  seq: number
  created_at: number
  updated_at: number
}

export interface FraudBlocklistTable {
  id: string
  game_id: string
  type: string
  value: string
  reason: string
  created_at: number
  expires_at: number
}

export interface FraudGamesTable {
  game_id: string
  templates_at: number
}

export interface FraudEventsTable {
  id: string
  game_id: string
  received_at: number
  event_time: number
  player_id: string
  event_id: string
  event_type: string
  threat_type: string | null
  risk_score: number
  status: string
  triggered_rules: string
  reasons: string
  ip: string | null
  device_fingerprint: string | null
  review: string
  reviewed_at: number | null
}

export interface FraudDailyTable {
  game_id: string
  day: number
  analyzed: number
  blocked: number
  flagged: number
  logged: number
  latency_ns: number
}

export interface FraudDetectorStateTable {
  game_id: string
  kind: string
  entry_key: string
  value: string
  updated_at: number
}

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
}

export interface Database {
  organizations: OrganizationsTable
  api_keys: ApiKeysTable
  api_key_activity: ApiKeyActivityTable
  idempotency_records: IdempotencyRecordsTable
  job_runs: JobRunsTable
  schema_migrations: SchemaMigrationsTable
  rate_limit_counters: RateLimitCountersTable
  links: LinksTable
  link_tags: LinkTagsTable
  clicks: ClicksTable
  link_click_hours: LinkClickHoursTable
  link_click_dims: LinkClickDimsTable
  link_click_dims_month: LinkClickDimsMonthTable
  link_day_visitors: LinkDayVisitorsTable
  link_day_totals: LinkDayTotalsTable
  org_click_days: OrgClickDaysTable
  games: GamesTable
  game_batches: GameBatchesTable
  game_events: GameEventsTable
  game_sessions: GameSessionsTable
  game_players: GamePlayersTable
  game_player_days: GamePlayerDaysTable
  game_daily: GameDailyTable
  game_daily_dims: GameDailyDimsTable
  game_day_gaps: GameDayGapsTable
  game_cohorts: GameCohortsTable
  game_acquisition_daily: GameAcquisitionDailyTable
  game_dim_paying_gaps: GameDimPayingGapsTable
  game_player_totals: GamePlayerTotalsTable
  gdpr_deletions: GdprDeletionsTable
  custom_domains: CustomDomainsTable
  acme_accounts: AcmeAccountsTable
  acme_challenges: AcmeChallengesTable
  webhooks: WebhooksTable
  webhook_deliveries: WebhookDeliveriesTable
  fraud_rules: FraudRulesTable
  fraud_blocklist: FraudBlocklistTable
  fraud_games: FraudGamesTable
  fraud_events: FraudEventsTable
  fraud_daily: FraudDailyTable
  fraud_detector_state: FraudDetectorStateTable
  skan_campaigns: SkanCampaignsTable
  skan_postbacks: SkanPostbacksTable
}

/** A snake_case column name in camelCase, at the type level (`hour_start` → `hourStart`). */
export type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S
/**
 * A table's row with camelCase keys: the counter types of the stores (click counters, gaming
 * aggregates) follow the schema's column types instead of repeating them.
 */
export type Camelized<T> = { [K in keyof T & string as CamelCase<K>]: T[K] }
