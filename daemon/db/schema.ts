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
  body: string
  created_at: number
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

export interface LinkDayTotalsTable {
  link_id: string
  day_start: number
  visitors: number
  single_click_visitors: number
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

export interface Database {
  organizations: OrganizationsTable
  api_keys: ApiKeysTable
  api_key_activity: ApiKeyActivityTable
  idempotency_records: IdempotencyRecordsTable
  job_runs: JobRunsTable
  schema_migrations: SchemaMigrationsTable
  links: LinksTable
  link_tags: LinkTagsTable
  clicks: ClicksTable
  link_click_hours: LinkClickHoursTable
  link_click_dims: LinkClickDimsTable
  link_click_dims_month: LinkClickDimsMonthTable
  link_day_visitors: LinkDayVisitorsTable
  link_day_totals: LinkDayTotalsTable
  custom_domains: CustomDomainsTable
  acme_accounts: AcmeAccountsTable
  acme_challenges: AcmeChallengesTable
  webhooks: WebhooksTable
  webhook_deliveries: WebhookDeliveriesTable
}
