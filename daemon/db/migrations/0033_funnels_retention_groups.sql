-- Funnels and retention breakdowns. Portable SQL (SQLite and PostgreSQL).

-- A funnel reads each step's events of one type in time order: this index holds all it reads
-- (but the data of a step with a condition), so no table row is visited.
CREATE INDEX game_events_funnel ON game_events (game_id, event_type, ts, player_id, event_id);

-- Retention by acquisition group: game_cohorts per value of the player's platform, country,
-- source, campaign and link ('' when the player has none: the `(none)` group). The fold counts a
-- player's active day under their values, and moves their days when a value becomes known later.
CREATE TABLE game_cohort_dims (
  game_id TEXT NOT NULL,
  dim TEXT NOT NULL,
  install_day INTEGER NOT NULL,
  day_offset INTEGER NOT NULL,
  value TEXT NOT NULL,
  players BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (game_id, dim, install_day, day_offset, value)
);

-- The days stored before: from the player-days and the profiles (players deleted by GDPR before,
-- whose anonymous cohort counts stay in game_cohorts, are not in any group of those days).
INSERT INTO game_cohort_dims (game_id, dim, install_day, day_offset, value, players)
SELECT d.game_id, x.dim, d.install_day, d.day - d.install_day,
  CASE x.dim
    WHEN 'platform' THEN p.platform
    WHEN 'country' THEN COALESCE(p.country, '')
    WHEN 'source' THEN COALESCE(p.source, '')
    WHEN 'campaign' THEN COALESCE(p.campaign, '')
    ELSE COALESCE(p.link_id, '')
  END,
  COUNT(*)
FROM game_player_days d
JOIN game_players p ON p.game_id = d.game_id AND p.player_id = d.player_id
CROSS JOIN (SELECT 'platform' AS dim UNION ALL SELECT 'country' UNION ALL SELECT 'source'
  UNION ALL SELECT 'campaign' UNION ALL SELECT 'link') x
GROUP BY d.game_id, x.dim, d.install_day, d.day - d.install_day,
  CASE x.dim
    WHEN 'platform' THEN p.platform
    WHEN 'country' THEN COALESCE(p.country, '')
    WHEN 'source' THEN COALESCE(p.source, '')
    WHEN 'campaign' THEN COALESCE(p.campaign, '')
    ELSE COALESCE(p.link_id, '')
  END;
