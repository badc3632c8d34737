-- Gaming analytics, part B (issue 12): reporting currency, segment thresholds, acquisition money
-- and paying players per platform/source. Portable SQL (SQLite and PostgreSQL). Money is BIGINT
-- micro-units of the game's reporting currency (events in another currency are converted at
-- ingestion with the rate they carry, see the README).

-- The currency every stored amount is in; fixed once the game has players (409 then).
ALTER TABLE games ADD COLUMN reporting_currency TEXT NOT NULL DEFAULT 'USD';
-- Segments by lifetime revenue: whale >= whale_micros, dolphin >= dolphin_micros, minnow > 0,
-- free = 0. Read at query time, so a change re-segments every player at once.
ALTER TABLE games ADD COLUMN whale_micros BIGINT NOT NULL DEFAULT 100000000;
ALTER TABLE games ADD COLUMN dolphin_micros BIGINT NOT NULL DEFAULT 10000000;

-- Per game per UTC day per attribution value (dim affiliate, campaign, source, medium: the
-- player's first-touch profile values): acquisition cost (data.cost of app_install, on the
-- install event's day), affiliate commission (data.commission of revenue events, on their day)
-- and conversions (installs that became paying players, counted on the INSTALL day).
CREATE TABLE game_acquisition_daily (
  game_id TEXT NOT NULL,
  day INTEGER NOT NULL,
  dim TEXT NOT NULL,
  value TEXT NOT NULL,
  cost_micros BIGINT NOT NULL DEFAULT 0,
  commission_micros BIGINT NOT NULL DEFAULT 0,
  conversions BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (game_id, day, dim, value)
);

-- game_day_gaps 'paying' per profile value (dim platform and source): distinct paying players of
-- a value in [S, E] = SUM(players) WHERE day BETWEEN S AND E AND prev_day < S.
CREATE TABLE game_dim_paying_gaps (
  game_id TEXT NOT NULL,
  dim TEXT NOT NULL,
  value TEXT NOT NULL,
  day INTEGER NOT NULL,
  prev_day INTEGER NOT NULL,
  players BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (game_id, dim, day, value, prev_day)
);

-- The number of player profiles of a game (inserted profiles minus GDPR-purged ones): the free
-- segment and the unfiltered explorer total without counting a million index entries.
CREATE TABLE game_player_totals (
  game_id TEXT PRIMARY KEY,
  players BIGINT NOT NULL DEFAULT 0
);
INSERT INTO game_player_totals (game_id, players)
  SELECT game_id, COUNT(*) FROM game_players GROUP BY game_id;

-- The players explorer sorts by revenue (the default), sessions or last activity, ties by player
-- id: with the player id in each index a page is read in index order, with no sort of a million
-- profiles (measured: 1.3 s for a million without them, ~1 ms with). The price is on ingestion:
-- every batch moves each of its players' last_active_at entry, a new session its session_count
-- entry, and a new player lands at a random place of the sessions index; the two cost ~600 of the
-- ~4,100 pages a batch of 1,000 new players writes (15%), little for batches of a few players.
DROP INDEX game_players_revenue;
CREATE INDEX game_players_revenue ON game_players (game_id, revenue_total_micros, player_id);
CREATE INDEX game_players_sessions ON game_players (game_id, session_count, player_id);
CREATE INDEX game_players_last_active ON game_players (game_id, last_active_at, player_id);
-- The explorer's platform and country filters count their matches (the pagination total): without
-- an index that count reads every profile of the game (1.4 s for a million). Both values are first
-- touch, set once, and new players append within their value's range (by row id): cheap to keep.
CREATE INDEX game_players_platform ON game_players (game_id, platform);
CREATE INDEX game_players_country ON game_players (game_id, country);
