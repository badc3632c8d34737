-- Install attribution by click id (smart links' clk_… ids): the game setting of the window, the
-- player's first-touch link and click, and the claims that let one click credit one install.
ALTER TABLE games ADD COLUMN attribution_window_days INTEGER NOT NULL DEFAULT 7;
ALTER TABLE game_players ADD COLUMN link_id TEXT;
ALTER TABLE game_players ADD COLUMN click_id TEXT;
CREATE INDEX game_players_link ON game_players (link_id, game_id) WHERE link_id IS NOT NULL;
-- One row per click that credited an install (the first to commit); inserted in the batch's
-- transaction. Owned by the gaming storage; no foreign keys (clicks and links are purged apart).
CREATE TABLE install_click_claims (
  organization_id TEXT NOT NULL,
  click_id TEXT NOT NULL,
  game_id TEXT NOT NULL,
  player_id TEXT NOT NULL,
  claimed_at BIGINT NOT NULL,
  PRIMARY KEY (organization_id, click_id)
);
CREATE INDEX install_click_claims_player ON install_click_claims (game_id, player_id);
