-- The custom event names a player sent on a day (a JSON array of names; null: none): distinct
-- players per custom name over any range (game_day_gaps kind 'custom:<name>') and per day
-- (game_daily_dims 'custom_event' players). The custom-name rows stored before counted no players:
-- they move to dim 'custom_event_uncounted' (events only), so that the events report can tell the
-- ranges holding them (their custom names answer uniquePlayers null).
ALTER TABLE game_player_days ADD COLUMN custom_events TEXT;
UPDATE game_daily_dims SET dim = 'custom_event_uncounted' WHERE dim = 'custom_event';
