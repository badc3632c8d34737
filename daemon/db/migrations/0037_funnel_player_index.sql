-- Funnels find each player's earliest event of a step's type after a time, player by player:
-- an index by type then player replaces the one by type then time (same width, so ingestion
-- keeps one index entry per raw event for funnels).
DROP INDEX game_events_funnel;
CREATE INDEX game_events_funnel_player ON game_events (game_id, event_type, player_id, ts, event_id);
