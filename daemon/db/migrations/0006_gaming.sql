-- Gaming core (issue 6): games, ingestion, the four storage layers, GDPR deletions.
-- Portable SQL (SQLite and PostgreSQL): integer Unix ms timestamps, TEXT ids, JSON as TEXT,
-- ON CONFLICT upserts, no foreign keys on the event tables (hot path; purged by jobs).
-- Days are UTC day numbers (Unix ms / 86,400,000, an INTEGER) so that ranges and offsets are
-- plain arithmetic on both databases. Money is BIGINT micro-units of the reporting currency.

-- games.id is internal (gam_…); the wire id is the slug, unique per organization.
CREATE TABLE games (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  slug TEXT NOT NULL,
  name TEXT NOT NULL,
  platform TEXT NOT NULL,
  status TEXT NOT NULL,
  module_analytics INTEGER NOT NULL,
  module_fraud INTEGER NOT NULL,
  module_skan INTEGER NOT NULL,
  raw_retention_days INTEGER NOT NULL,
  compacted_retention_months INTEGER NOT NULL,
  hmac_required INTEGER NOT NULL,
  replay_window_seconds INTEGER NOT NULL,
  sdk_key_hash TEXT NOT NULL UNIQUE,
  sdk_key_last_four TEXT NOT NULL,
  -- AES-256-GCM sealed with the master key (HMAC needs the raw value).
  signing_secret TEXT NOT NULL,
  -- Retention never revives expired data: raw rows before raw_floor and aggregate days before
  -- compacted_floor_day stay deleted even when the retention is extended later.
  raw_floor BIGINT NOT NULL DEFAULT 0,
  compacted_floor_day INTEGER NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  UNIQUE (organization_id, slug)
);

-- batch_id idempotency: the first 202 body, replayed for 24 h.
CREATE TABLE game_batches (
  game_id TEXT NOT NULL,
  batch_id TEXT NOT NULL,
  response TEXT NOT NULL,
  received_at BIGINT NOT NULL,
  PRIMARY KEY (game_id, batch_id)
);
CREATE INDEX game_batches_received ON game_batches (received_at);

-- Layer 1: raw events. The primary key is the event_id dedupe.
CREATE TABLE game_events (
  game_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  event_type TEXT NOT NULL,
  player_id TEXT NOT NULL,
  session_id TEXT,
  platform TEXT NOT NULL,
  ts BIGINT NOT NULL,
  received_at BIGINT NOT NULL,
  batch_id TEXT NOT NULL,
  revenue_type TEXT,
  revenue_micros BIGINT NOT NULL DEFAULT 0,
  currency TEXT,
  country TEXT,
  ip TEXT,
  device_fingerprint TEXT,
  -- Pipeline verdict: 'accept' or 'flag' (blocked events are not stored here).
  verdict TEXT NOT NULL,
  data TEXT,
  PRIMARY KEY (game_id, event_id)
);
CREATE INDEX game_events_time ON game_events (game_id, ts);
CREATE INDEX game_events_player ON game_events (game_id, player_id, ts);

-- Layer 2: sessions. A session is (player, session_id) until 30 minutes without events or its
-- session_end; events without a session_id join the player's latest session within 30 minutes.
CREATE TABLE game_sessions (
  game_id TEXT NOT NULL,
  id TEXT NOT NULL,
  player_id TEXT NOT NULL,
  session_id TEXT,
  started_at BIGINT NOT NULL,
  last_event_at BIGINT NOT NULL,
  ended_at BIGINT,
  events INTEGER NOT NULL,
  PRIMARY KEY (game_id, id)
);
-- ids start with the start time (base 36), so inserts append to the primary key.
CREATE INDEX game_sessions_player ON game_sessions (game_id, player_id, session_id, started_at);
CREATE INDEX game_sessions_time ON game_sessions (game_id, started_at);

-- Layer 3: player profiles. First seen = install; platform, country, device fingerprint and
-- attribution are first-touch (set when first known, never overwritten).
CREATE TABLE game_players (
  game_id TEXT NOT NULL,
  player_id TEXT NOT NULL,
  first_seen_at BIGINT NOT NULL,
  install_day INTEGER NOT NULL,
  last_active_at BIGINT NOT NULL,
  last_active_day INTEGER NOT NULL,
  platform TEXT NOT NULL,
  country TEXT,
  device_fingerprint TEXT,
  affiliate TEXT,
  campaign TEXT,
  source TEXT,
  medium TEXT,
  session_count INTEGER NOT NULL,
  event_count BIGINT NOT NULL,
  transactions INTEGER NOT NULL,
  revenue_iap_micros BIGINT NOT NULL,
  revenue_ad_micros BIGINT NOT NULL,
  revenue_subscription_micros BIGINT NOT NULL,
  revenue_total_micros BIGINT NOT NULL,
  first_purchase_at BIGINT,
  -- The session the player's next event without a session_id may join (latest by last event).
  current_session_id TEXT,
  PRIMARY KEY (game_id, player_id)
);
-- Few indexes on purpose: every batch updates these rows (players by device: game_player_devices).
CREATE INDEX game_players_revenue ON game_players (game_id, revenue_total_micros);
CREATE INDEX game_players_install ON game_players (game_id, install_day);

-- Every device fingerprint a player used (device farms: players per fingerprint).
CREATE TABLE game_player_devices (
  game_id TEXT NOT NULL,
  device_fingerprint TEXT NOT NULL,
  player_id TEXT NOT NULL,
  first_seen_at BIGINT NOT NULL,
  last_seen_at BIGINT NOT NULL,
  PRIMARY KEY (game_id, device_fingerprint, player_id)
);
CREATE INDEX game_player_devices_player ON game_player_devices (game_id, player_id);

-- Layer 4: aggregates. Per player per active UTC day (DAU/MAU, retention, payers, segments);
-- event_types is a bit set of the named types (bit i = NAMED_EVENT_TYPES[i], bit 20 = custom).
CREATE TABLE game_player_days (
  game_id TEXT NOT NULL,
  player_id TEXT NOT NULL,
  day INTEGER NOT NULL,
  install_day INTEGER NOT NULL,
  events INTEGER NOT NULL,
  revenue_micros BIGINT NOT NULL,
  event_types BIGINT NOT NULL,
  PRIMARY KEY (game_id, player_id, day)
);
CREATE INDEX game_player_days_day ON game_player_days (game_id, day);
CREATE INDEX game_player_days_cohort ON game_player_days (game_id, install_day, day);

-- Per game per UTC day: the anonymous daily totals (kept after a GDPR deletion).
CREATE TABLE game_daily (
  game_id TEXT NOT NULL,
  day INTEGER NOT NULL,
  active_players BIGINT NOT NULL DEFAULT 0,
  new_players BIGINT NOT NULL DEFAULT 0,
  paying_players BIGINT NOT NULL DEFAULT 0,
  sessions BIGINT NOT NULL DEFAULT 0,
  session_seconds BIGINT NOT NULL DEFAULT 0,
  events BIGINT NOT NULL DEFAULT 0,
  flagged_events BIGINT NOT NULL DEFAULT 0,
  transactions BIGINT NOT NULL DEFAULT 0,
  revenue_iap_micros BIGINT NOT NULL DEFAULT 0,
  revenue_ad_micros BIGINT NOT NULL DEFAULT 0,
  revenue_subscription_micros BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (game_id, day)
);

-- Per game per UTC day per dimension value. dim: platform, country, affiliate, campaign, source,
-- medium (the player's profile values; players = active that day, new_players = installs),
-- event_type (named types and 'custom'; players exact per day), custom_event (custom names).
CREATE TABLE game_daily_dims (
  game_id TEXT NOT NULL,
  day INTEGER NOT NULL,
  dim TEXT NOT NULL,
  value TEXT NOT NULL,
  players BIGINT NOT NULL DEFAULT 0,
  new_players BIGINT NOT NULL DEFAULT 0,
  paying_players BIGINT NOT NULL DEFAULT 0,
  events BIGINT NOT NULL DEFAULT 0,
  transactions BIGINT NOT NULL DEFAULT 0,
  revenue_iap_micros BIGINT NOT NULL DEFAULT 0,
  revenue_ad_micros BIGINT NOT NULL DEFAULT 0,
  revenue_subscription_micros BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (game_id, day, dim, value)
);

-- Distinct players over any day range without scanning player-days: players active (kind
-- 'active') or paying ('paying') on day whose previous such day was prev_day (-1: none).
-- Distinct in [S, E] = SUM(players) WHERE day BETWEEN S AND E AND prev_day < S.
CREATE TABLE game_day_gaps (
  game_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  day INTEGER NOT NULL,
  prev_day INTEGER NOT NULL,
  players BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (game_id, kind, day, prev_day)
);

-- Cohort retention: players of the install-day cohort active day_offset days later (0 = size).
CREATE TABLE game_cohorts (
  game_id TEXT NOT NULL,
  install_day INTEGER NOT NULL,
  day_offset INTEGER NOT NULL,
  players BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (game_id, install_day, day_offset)
);

-- GDPR deletion requests; the record is kept 365 days after completion, then purged.
CREATE TABLE gdpr_deletions (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL,
  game_id TEXT NOT NULL,
  game_slug TEXT NOT NULL,
  player_id TEXT NOT NULL,
  reason TEXT NOT NULL,
  status TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  started_at BIGINT,
  completed_at BIGINT,
  purged TEXT,
  expires_at BIGINT NOT NULL
);
CREATE INDEX gdpr_deletions_status ON gdpr_deletions (status, created_at);
CREATE INDEX gdpr_deletions_expiry ON gdpr_deletions (expires_at);
