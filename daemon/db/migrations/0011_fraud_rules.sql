-- Fraud part 1 (issue 13): rules, blocklist, and the once-only template seeding per game.
-- Portable SQL (SQLite and PostgreSQL). Keys are the internal game id (gam_…).

CREATE TABLE fraud_rules (
  id TEXT PRIMARY KEY,
  game_id TEXT NOT NULL,
  name TEXT NOT NULL,
  action TEXT NOT NULL,
  field TEXT NOT NULL,
  operator TEXT NOT NULL,
  -- JSON text of the value (string, number, boolean or array).
  value TEXT NOT NULL,
  priority INTEGER NOT NULL,
  cooldown_minutes INTEGER NOT NULL,
  enabled INTEGER NOT NULL,
  template TEXT,
  -- Creation order: the tie-break of equal priorities.
  seq BIGINT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX fraud_rules_game ON fraud_rules (game_id, priority, seq);

CREATE TABLE fraud_blocklist (
  id TEXT PRIMARY KEY,
  game_id TEXT NOT NULL,
  type TEXT NOT NULL,
  value TEXT NOT NULL,
  reason TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX fraud_blocklist_value ON fraud_blocklist (game_id, type, value);
CREATE INDEX fraud_blocklist_expiry ON fraud_blocklist (expires_at);

-- A game whose templates were created: re-enabling fraud does not create them again.
CREATE TABLE fraud_games (
  game_id TEXT PRIMARY KEY,
  templates_at BIGINT NOT NULL
);
