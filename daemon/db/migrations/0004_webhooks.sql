-- Webhooks and their delivery outbox. Portable SQL (SQLite and PostgreSQL): integer Unix ms
-- timestamps, TEXT ids, JSON as TEXT.
-- The signing secret is encrypted at rest (AES-256-GCM with the master key): signing needs it.

CREATE TABLE webhooks (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  description TEXT,
  url TEXT NOT NULL,
  -- JSON array of event types
  events TEXT NOT NULL,
  retry_policy TEXT NOT NULL,
  max_retries INTEGER NOT NULL,
  timeout_seconds INTEGER NOT NULL,
  -- custom headers (a JSON object), sealed with the master key like the secret: they often hold credentials
  headers TEXT NOT NULL,
  secret_sealed TEXT NOT NULL,
  -- active | disabled | suspended
  status TEXT NOT NULL,
  consecutive_failures INTEGER NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX webhooks_org_created ON webhooks (organization_id, created_at, id);

-- One row per (event, webhook): written before the first attempt, so a restart resumes it.
CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,
  webhook_id TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
  organization_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  event TEXT NOT NULL,
  -- the JSON body exactly as sent (its bytes are what the signature covers)
  payload TEXT NOT NULL,
  is_test INTEGER NOT NULL DEFAULT 0,
  -- pending | success | failed
  status TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  max_attempts INTEGER NOT NULL,
  -- when the next attempt is due (pending rows only)
  next_attempt_at BIGINT,
  -- claimed by a sender until then (several linkd processes may share the database)
  locked_until BIGINT NOT NULL DEFAULT 0,
  last_status_code INTEGER,
  last_error TEXT,
  last_duration_ms INTEGER,
  last_attempt_at BIGINT,
  created_at BIGINT NOT NULL,
  completed_at BIGINT
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id, created_at, id);
CREATE INDEX webhook_deliveries_created ON webhook_deliveries (created_at);
