-- Fraud detectors (issue 13): the detectors' in-memory windows and running statistics, saved so
-- they survive a restart. One row per entry: kind 'player' (cadence and per-minute counter of a
-- player), 'ip' / 'device' (distinct players of an IP / device fingerprint, as hashes, with the
-- time each was seen), 'game' (running statistics of the game). value is the entry's JSON.
-- Portable SQL (SQLite and PostgreSQL).
CREATE TABLE fraud_detector_state (
  game_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  entry_key TEXT NOT NULL,
  value TEXT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (game_id, kind, entry_key)
);
-- The start loads the newest entries of each kind; the prune removes the old ones.
CREATE INDEX fraud_detector_state_recent ON fraud_detector_state (kind, updated_at);
