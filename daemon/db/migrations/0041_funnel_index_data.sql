-- Funnels: a step with a data condition read each candidate event's row for its data (about
-- 60 % of a funnel's time at 1M players). The funnel index now holds the data too, so a step's
-- seek decides the condition in the index alone. SQLite only: PostgreSQL's text keeps 0037's
-- index (its b-tree entries are bounded in size, and its funnel reads by hash join).
DROP INDEX game_events_funnel_player;
CREATE INDEX game_events_funnel_player ON game_events (game_id, event_type, player_id, ts, event_id, data);
