-- Click recording: raw clicks (no raw IP addresses) and the pre-aggregated counters that link
-- analytics and sorting by clicks read, so that neither ever scans raw clicks.
-- Portable SQL (SQLite and PostgreSQL): integer Unix ms timestamps, TEXT ids, ON CONFLICT upserts.
-- No foreign keys: a click buffered for a link deleted before the flush must not fail the batch.

CREATE TABLE clicks (
  link_id TEXT NOT NULL,
  organization_id TEXT NOT NULL,
  ts BIGINT NOT NULL,
  -- SHA-256 of (daily salt, IP, user agent); the salt rotates every UTC day.
  visitor_hash TEXT NOT NULL,
  is_bot INTEGER NOT NULL,
  bot_reason TEXT,
  is_qr INTEGER NOT NULL,
  country TEXT,
  region TEXT,
  city TEXT,
  device TEXT NOT NULL,
  browser TEXT,
  os TEXT,
  referrer_domain TEXT,
  utm_source TEXT,
  utm_medium TEXT,
  utm_campaign TEXT,
  response_ms DOUBLE PRECISION NOT NULL
);
CREATE INDEX clicks_link_ts ON clicks (link_id, ts);

-- Per link per UTC hour: human clicks (QR scans included), bots, human QR scans, and the sum of
-- server response times of every redirect (humans and bots).
CREATE TABLE link_click_hours (
  link_id TEXT NOT NULL,
  hour_start BIGINT NOT NULL,
  clicks BIGINT NOT NULL DEFAULT 0,
  bots BIGINT NOT NULL DEFAULT 0,
  qr_scans BIGINT NOT NULL DEFAULT 0,
  response_ms_sum DOUBLE PRECISION NOT NULL DEFAULT 0,
  PRIMARY KEY (link_id, hour_start)
);

-- Per link per UTC day per dimension value: human clicks. dim is one of country, region
-- ("CC/Region"), device, browser, os, referrer, utm_source, utm_medium, utm_campaign.
CREATE TABLE link_click_dims (
  link_id TEXT NOT NULL,
  day_start BIGINT NOT NULL,
  dim TEXT NOT NULL,
  value TEXT NOT NULL,
  clicks BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (link_id, day_start, dim, value)
);

-- The same counters rolled up per UTC calendar month (month_start = first day, 00:00 UTC), so that
-- long ranges read whole months here and only their partial months from link_click_dims.
CREATE TABLE link_click_dims_month (
  link_id TEXT NOT NULL,
  month_start BIGINT NOT NULL,
  dim TEXT NOT NULL,
  value TEXT NOT NULL,
  clicks BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (link_id, month_start, dim, value)
);

-- Per link per UTC day per visitor hash: human clicks. Written only by upserts that return the new
-- count, so that the daily totals below are maintained without reading these rows back.
CREATE TABLE link_day_visitors (
  link_id TEXT NOT NULL,
  day_start BIGINT NOT NULL,
  visitor_hash TEXT NOT NULL,
  clicks BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (link_id, day_start, visitor_hash)
);

-- Per link per UTC day: distinct visitors and visitors with exactly one click.
CREATE TABLE link_day_totals (
  link_id TEXT NOT NULL,
  day_start BIGINT NOT NULL,
  visitors BIGINT NOT NULL DEFAULT 0,
  single_click_visitors BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (link_id, day_start)
);
