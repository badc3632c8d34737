-- Core tables: organizations, API keys and their activity, idempotency records, job runs.
-- Portable SQL (SQLite and PostgreSQL): integer Unix ms timestamps, TEXT ids, JSON as TEXT.

CREATE TABLE organizations (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  plan TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  description TEXT,
  prefix TEXT NOT NULL,
  environment TEXT NOT NULL,
  key_hash TEXT NOT NULL UNIQUE,
  last_four TEXT NOT NULL,
  permissions TEXT NOT NULL,
  request_limit INTEGER NOT NULL,
  time_period TEXT NOT NULL,
  allowed_ips TEXT NOT NULL,
  allowed_origins TEXT NOT NULL,
  expires_at BIGINT,
  status TEXT NOT NULL,
  revoked_at BIGINT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  last_used_at BIGINT,
  last_used_ip TEXT,
  total_requests BIGINT NOT NULL DEFAULT 0,
  usage_day TEXT,
  requests_today BIGINT NOT NULL DEFAULT 0,
  usage_month TEXT,
  requests_this_month BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX api_keys_org_created ON api_keys (organization_id, created_at);
CREATE INDEX api_keys_expiry ON api_keys (status, expires_at);

CREATE TABLE api_key_activity (
  id TEXT PRIMARY KEY,
  key_id TEXT NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
  organization_id TEXT NOT NULL,
  ts BIGINT NOT NULL,
  endpoint TEXT NOT NULL,
  method TEXT NOT NULL,
  status_code INTEGER NOT NULL,
  response_time_ms DOUBLE PRECISION NOT NULL,
  ip TEXT,
  user_agent TEXT,
  referrer TEXT,
  country TEXT,
  error TEXT
);
CREATE INDEX api_key_activity_key_ts ON api_key_activity (key_id, ts);
CREATE INDEX api_key_activity_ts ON api_key_activity (ts);

CREATE TABLE idempotency_records (
  owner TEXT NOT NULL,
  idem_key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  status_code INTEGER NOT NULL,
  content_type TEXT,
  body TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (owner, idem_key)
);
CREATE INDEX idempotency_records_created ON idempotency_records (created_at);

CREATE TABLE job_runs (
  name TEXT PRIMARY KEY,
  lease_owner TEXT,
  lease_until BIGINT NOT NULL DEFAULT 0,
  last_run_at BIGINT,
  last_status TEXT,
  last_error TEXT,
  last_duration_ms INTEGER,
  run_count BIGINT NOT NULL DEFAULT 0
);
