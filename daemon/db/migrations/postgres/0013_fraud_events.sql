-- Fraud part 3 (issue 13): what the pipeline found. The PostgreSQL text of 0013: the same table,
-- with risk_score DOUBLE PRECISION (PostgreSQL's REAL is 4 bytes; SQLite's REAL is 8).

-- One row per event a rule blocked (status 'blocked') or flagged (status 'detected'), written in
-- the batch's transaction. Log-only matches are counted in fraud_daily, not stored here.
CREATE TABLE fraud_events (
  id TEXT PRIMARY KEY,
  game_id TEXT NOT NULL,
  -- When the batch was received (Unix ms): the fraud event's time, and its retention clock.
  received_at BIGINT NOT NULL,
  -- The event's own time (Unix ms).
  event_time BIGINT NOT NULL,
  player_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  event_type TEXT NOT NULL,
  -- One of the seven threat types; NULL when the deciding rule read no detector.
  threat_type TEXT,
  risk_score DOUBLE PRECISION NOT NULL,
  status TEXT NOT NULL,
  -- JSON arrays: the names of the triggered rules; the detectors' reasons.
  triggered_rules TEXT NOT NULL,
  reasons TEXT NOT NULL,
  ip TEXT,
  device_fingerprint TEXT,
  -- 'pending' until a reviewer marks it 'legitimate' or 'fraud'.
  review TEXT NOT NULL,
  reviewed_at BIGINT
);
-- Newest first per game (the events list and the dashboard range); retention deletes by time.
CREATE INDEX fraud_events_game_time ON fraud_events (game_id, received_at, id);
-- GDPR purge and the player filter.
CREATE INDEX fraud_events_player ON fraud_events (game_id, player_id, received_at);

-- Per game and UTC day of receipt: the events the pipeline analyzed, what the rules decided, and
-- the time spent in the pipeline (nanoseconds, summed) for the average detection latency.
CREATE TABLE fraud_daily (
  game_id TEXT NOT NULL,
  day INTEGER NOT NULL,
  analyzed BIGINT NOT NULL,
  blocked BIGINT NOT NULL,
  flagged BIGINT NOT NULL,
  logged BIGINT NOT NULL,
  latency_ns BIGINT NOT NULL,
  PRIMARY KEY (game_id, day)
);
