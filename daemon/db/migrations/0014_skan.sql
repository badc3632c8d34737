-- SKAN (issue 14): campaigns with their conversion schema, and the postbacks Apple (or an ad
-- network) posts. Portable SQL (SQLite and PostgreSQL). game_id is the internal game id (gam_…).
-- Postbacks hold no player id: Apple's fields only (transaction id, app and source ids, values).

CREATE TABLE skan_campaigns (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL,
  game_id TEXT NOT NULL,
  -- The game's slug (immutable): the id the API shows.
  game_slug TEXT NOT NULL,
  name TEXT NOT NULL,
  ad_network_id TEXT NOT NULL,
  affiliate_id TEXT,
  -- 2-4 digits: the 4.0 source-identifier (and, as a number, the 2.2/3.0 campaign-id) it matches.
  source_identifier TEXT,
  lock_window_hours INTEGER NOT NULL,
  -- JSON text of the conversion schema (events, coarseValues, lockWindow, decodedRevenue?).
  conversion_schema TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX skan_campaigns_game ON skan_campaigns (game_id, created_at);
CREATE INDEX skan_campaigns_network ON skan_campaigns (ad_network_id);

CREATE TABLE skan_postbacks (
  id TEXT PRIMARY KEY,
  -- NULL when no campaign matched; game_id follows the campaign's game.
  campaign_id TEXT,
  game_id TEXT,
  received_at BIGINT NOT NULL,
  version TEXT NOT NULL,
  verified INTEGER NOT NULL,
  transaction_id TEXT NOT NULL,
  sequence_index INTEGER NOT NULL,
  ad_network_id TEXT NOT NULL,
  -- The 4.0 source-identifier, or the 2.2/3.0 campaign-id in decimal.
  source_identifier TEXT NOT NULL,
  app_id BIGINT NOT NULL,
  did_win INTEGER NOT NULL,
  redownload INTEGER NOT NULL,
  fine_value INTEGER,
  coarse_value TEXT,
  -- Decoded on receipt with the campaign's schema: JSON array of event names.
  events TEXT NOT NULL,
  -- The postback as posted (JSON text).
  payload TEXT NOT NULL
);
CREATE UNIQUE INDEX skan_postbacks_dedupe ON skan_postbacks (transaction_id, sequence_index);
CREATE INDEX skan_postbacks_campaign ON skan_postbacks (campaign_id, received_at);
CREATE INDEX skan_postbacks_game ON skan_postbacks (game_id, received_at);
