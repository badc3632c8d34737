-- Gaming analytics part A (issue 12): what retention, leaderboard, geography and events read.
-- Portable SQL (SQLite and PostgreSQL).

-- Sessions per day per profile dimension value (geography: sessions per country). Counted when
-- a session starts, moved with it when an older event moves its start to another day.
ALTER TABLE game_daily_dims ADD COLUMN sessions BIGINT NOT NULL DEFAULT 0;

-- Leaderboard: revenue per player over a day range from the paying player-days only. Paying days
-- are a few percent of the active days, so this partial index is small and costs an index write
-- only when a player-day earns revenue; the leaderboard reads it without touching the table.
CREATE INDEX game_player_days_paying ON game_player_days (game_id, day, player_id, revenue_micros)
  WHERE revenue_micros > 0;

-- Geography "players" (distinct players of a range per country) reuses game_day_gaps with kind
-- 'country:<ISO code>' ('country:' when unknown): the same prev-day bookkeeping as kind 'active',
-- keyed by the player's profile country. No schema change needed for it.
