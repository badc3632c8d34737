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

export interface Database {
  organizations: OrganizationsTable
  api_keys: ApiKeysTable
  api_key_activity: ApiKeyActivityTable
  idempotency_records: IdempotencyRecordsTable
  job_runs: JobRunsTable
  schema_migrations: SchemaMigrationsTable
}
