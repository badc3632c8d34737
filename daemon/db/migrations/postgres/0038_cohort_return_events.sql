-- PostgreSQL's text of 0038: the same, the custom names read with json_array_elements_text.
-- Retention by return event: per install day, retention offset (0, 1, 3, 7, 14, 30) and event
-- type (a named type or a custom name), the players who sent that type on that day; for all
-- players (dim '', value '') and per value of the player's platform, country, source, campaign
-- and link ('' when none), as game_cohort_dims. The fold counts a type the first time it is on a
-- player's day and moves the counts when the install day or an acquisition value changes.
CREATE TABLE game_cohort_events (
  game_id TEXT NOT NULL,
  event_type TEXT NOT NULL,
  dim TEXT NOT NULL,
  install_day INTEGER NOT NULL,
  day_offset INTEGER NOT NULL,
  value TEXT NOT NULL,
  players BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (game_id, event_type, dim, install_day, day_offset, value)
);

-- The days stored before: named types from the player-days' event-type bits, custom names from
-- their custom_events; players deleted by GDPR before are in no count of those days.
INSERT INTO game_cohort_events (game_id, event_type, dim, install_day, day_offset, value, players)
SELECT t.game_id, t.event_type, x.dim, t.install_day, t.day - t.install_day,
  CASE x.dim
    WHEN '' THEN ''
    WHEN 'platform' THEN p.platform
    WHEN 'country' THEN COALESCE(p.country, '')
    WHEN 'source' THEN COALESCE(p.source, '')
    WHEN 'campaign' THEN COALESCE(p.campaign, '')
    ELSE COALESCE(p.link_id, '')
  END,
  COUNT(*)
FROM (
  SELECT d.game_id, d.player_id, d.install_day, d.day, n.name AS event_type
  FROM game_player_days d
  JOIN (SELECT 'session_start' AS name, 1 AS bit UNION ALL SELECT 'session_end', 2
    UNION ALL SELECT 'app_install', 4 UNION ALL SELECT 'app_open', 8 UNION ALL SELECT 'app_close', 16
    UNION ALL SELECT 'level_start', 32 UNION ALL SELECT 'level_complete', 64
    UNION ALL SELECT 'achievement_unlocked', 128 UNION ALL SELECT 'tutorial_complete', 256
    UNION ALL SELECT 'currency_spent', 512 UNION ALL SELECT 'currency_earned', 1024
    UNION ALL SELECT 'item_purchased', 2048 UNION ALL SELECT 'battle_won', 4096
    UNION ALL SELECT 'tournament_join', 8192 UNION ALL SELECT 'friend_invited', 16384
    UNION ALL SELECT 'purchase', 32768 UNION ALL SELECT 'subscription_start', 65536
    UNION ALL SELECT 'subscription_renew', 131072 UNION ALL SELECT 'subscription_cancel', 262144
    UNION ALL SELECT 'ad_watched', 524288) n ON (d.event_types / n.bit) % 2 = 1
  WHERE d.day - d.install_day IN (0, 1, 3, 7, 14, 30)
  UNION ALL
  SELECT d.game_id, d.player_id, d.install_day, d.day, c.value
  FROM game_player_days d
  CROSS JOIN LATERAL json_array_elements_text(d.custom_events::json) AS c(value)
  WHERE d.custom_events IS NOT NULL AND d.day - d.install_day IN (0, 1, 3, 7, 14, 30)
) t
JOIN game_players p ON p.game_id = t.game_id AND p.player_id = t.player_id
CROSS JOIN (SELECT '' AS dim UNION ALL SELECT 'platform' UNION ALL SELECT 'country'
  UNION ALL SELECT 'source' UNION ALL SELECT 'campaign' UNION ALL SELECT 'link') x
GROUP BY t.game_id, t.event_type, x.dim, t.install_day, t.day - t.install_day,
  CASE x.dim
    WHEN '' THEN ''
    WHEN 'platform' THEN p.platform
    WHEN 'country' THEN COALESCE(p.country, '')
    WHEN 'source' THEN COALESCE(p.source, '')
    WHEN 'campaign' THEN COALESCE(p.campaign, '')
    ELSE COALESCE(p.link_id, '')
  END;
