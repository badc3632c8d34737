import type { Generated } from 'kysely'

/**
 * The tables every module leans on: organizations, API keys and their activity, idempotency
 * records, the quotas' shared counters, job leases, the applied migrations and the master key's
 * fingerprint.
 * Kysely table types (daemon/db/schema.ts): timestamps are Unix ms; JSON columns are TEXT.
 */

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
  /** The member the key belongs to (null only before the teams migration ran). */
  member_id: string | null
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

/** The master key's fingerprint (migration 0040): one row, id 1. */
export interface MasterKeyFingerprintTable {
  id: number
  fingerprint: string
  created_at: number
}
