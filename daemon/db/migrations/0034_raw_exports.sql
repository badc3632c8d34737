-- Raw exports: scheduled exports of raw rows to S3-compatible object storage, the index that
-- reads an organization's clicks by time, and the QR code a scan came through.

CREATE TABLE export_destinations (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  -- 's3' (any S3-compatible store)
  kind TEXT NOT NULL,
  -- NULL: AWS S3 itself
  endpoint TEXT,
  bucket TEXT NOT NULL,
  prefix TEXT NOT NULL,
  region TEXT NOT NULL,
  access_key_id TEXT NOT NULL,
  -- the secret access key, encrypted at rest (AES-256-GCM with the master key)
  secret_sealed TEXT NOT NULL,
  -- ndjson | csv | parquet
  format TEXT NOT NULL,
  -- JSON array of datasets: raw_events, clicks
  datasets TEXT NOT NULL,
  -- the game's id (slug) of raw_events, NULL when the destination has clicks only
  game_id TEXT,
  created_at BIGINT NOT NULL,
  last_run_at BIGINT,
  last_success_at BIGINT,
  -- the last UTC day written (day number)
  last_exported_day BIGINT,
  last_error TEXT
);
CREATE INDEX export_destinations_org ON export_destinations (organization_id, created_at, id);

CREATE INDEX clicks_org_ts ON clicks (organization_id, ts);

-- The QR code resource (`qr_…`) of a human scan that named one (`?qr=<id>`); NULL otherwise.
ALTER TABLE clicks ADD COLUMN qr_code_id TEXT;
