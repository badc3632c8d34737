-- A profile dimension without a value (no source, no link, …) is counted under the value '' (the
-- reports' `(none)` row) from now on, so that the rows of every grouping add up to the totals.
-- Before, such players were left out of the dimension's rows. The days already stored get their
-- '' rows where the aggregates can tell them: the daily counters (the day's game totals less the
-- named values' sums), conversions (from the player profiles) and distinct paying players (from
-- the player-days). The cost and commission of players without a value were never stored.

INSERT INTO game_daily_dims (game_id, day, dim, value, players, new_players, paying_players, events,
  transactions, revenue_iap_micros, revenue_ad_micros, revenue_subscription_micros, sessions)
SELECT game_id, day, dim, '',
  CASE WHEN players > 0 THEN players ELSE 0 END,
  CASE WHEN new_players > 0 THEN new_players ELSE 0 END,
  CASE WHEN paying_players > 0 THEN paying_players ELSE 0 END,
  CASE WHEN events > 0 THEN events ELSE 0 END,
  CASE WHEN transactions > 0 THEN transactions ELSE 0 END,
  CASE WHEN iap > 0 THEN iap ELSE 0 END,
  CASE WHEN ad > 0 THEN ad ELSE 0 END,
  CASE WHEN sub > 0 THEN sub ELSE 0 END,
  CASE WHEN sessions > 0 THEN sessions ELSE 0 END
FROM (
  SELECT d.game_id, d.day, x.dim,
    d.active_players - COALESCE(SUM(m.players), 0) AS players,
    d.new_players - COALESCE(SUM(m.new_players), 0) AS new_players,
    d.paying_players - COALESCE(SUM(m.paying_players), 0) AS paying_players,
    d.events - COALESCE(SUM(m.events), 0) AS events,
    d.transactions - COALESCE(SUM(m.transactions), 0) AS transactions,
    d.revenue_iap_micros - COALESCE(SUM(m.revenue_iap_micros), 0) AS iap,
    d.revenue_ad_micros - COALESCE(SUM(m.revenue_ad_micros), 0) AS ad,
    d.revenue_subscription_micros - COALESCE(SUM(m.revenue_subscription_micros), 0) AS sub,
    d.sessions - COALESCE(SUM(m.sessions), 0) AS sessions
  FROM game_daily d
  CROSS JOIN (SELECT 'platform' AS dim UNION ALL SELECT 'affiliate' UNION ALL SELECT 'campaign'
    UNION ALL SELECT 'source' UNION ALL SELECT 'medium' UNION ALL SELECT 'link') x
  LEFT JOIN game_daily_dims m ON m.game_id = d.game_id AND m.day = d.day AND m.dim = x.dim
  GROUP BY d.game_id, d.day, x.dim, d.active_players, d.new_players, d.paying_players, d.events,
    d.transactions, d.revenue_iap_micros, d.revenue_ad_micros, d.revenue_subscription_micros, d.sessions
) rest
WHERE players > 0 OR new_players > 0 OR paying_players > 0 OR events > 0 OR transactions > 0
  OR iap > 0 OR ad > 0 OR sub > 0 OR sessions > 0
ON CONFLICT (game_id, day, dim, value) DO NOTHING;

INSERT INTO game_acquisition_daily (game_id, day, dim, value, cost_micros, commission_micros, conversions)
SELECT p.game_id, p.install_day, x.dim, '', 0, 0, COUNT(*)
FROM game_players p
CROSS JOIN (SELECT 'affiliate' AS dim UNION ALL SELECT 'campaign' UNION ALL SELECT 'source'
  UNION ALL SELECT 'medium' UNION ALL SELECT 'link') x
WHERE p.first_purchase_at IS NOT NULL
  AND ((x.dim = 'affiliate' AND p.affiliate IS NULL) OR (x.dim = 'campaign' AND p.campaign IS NULL)
    OR (x.dim = 'source' AND p.source IS NULL) OR (x.dim = 'medium' AND p.medium IS NULL)
    OR (x.dim = 'link' AND p.link_id IS NULL))
  -- Not on days compaction removed already.
  AND p.install_day >= (SELECT MIN(g.day) FROM game_daily g WHERE g.game_id = p.game_id)
GROUP BY p.game_id, p.install_day, x.dim
ON CONFLICT (game_id, day, dim, value) DO NOTHING;

INSERT INTO game_dim_paying_gaps (game_id, dim, value, day, prev_day, players)
SELECT game_id, dim, '', day, prev_day, COUNT(*)
FROM (
  SELECT d.game_id, x.dim, d.day,
    COALESCE(LAG(d.day) OVER (PARTITION BY d.game_id, d.player_id, x.dim ORDER BY d.day), -1) AS prev_day
  FROM game_player_days d
  JOIN game_players p ON p.game_id = d.game_id AND p.player_id = d.player_id
  CROSS JOIN (SELECT 'platform' AS dim UNION ALL SELECT 'source') x
  WHERE d.revenue_micros > 0
    AND ((x.dim = 'platform' AND p.platform IS NULL) OR (x.dim = 'source' AND p.source IS NULL))
) paying
WHERE true
GROUP BY game_id, dim, day, prev_day
ON CONFLICT (game_id, dim, day, value, prev_day) DO NOTHING;
