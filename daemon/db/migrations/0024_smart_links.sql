-- Smart links are rows of `links` with kind 'smart': they share the short-code namespace
-- (UNIQUE (domain_key, short_code)), the redirect's one lookup, clicks and counters by id.
-- destination_url holds the fallback; targets is JSON {ios, android, desktop} (each {url}|null).
-- clicks.click_id: the `clk_…` id of a human visit of a smart link, joined later from game
-- installs by (organization_id, click_id). Portable SQL (SQLite and PostgreSQL).
ALTER TABLE links ADD COLUMN kind TEXT NOT NULL DEFAULT 'link';
ALTER TABLE links ADD COLUMN targets TEXT;
ALTER TABLE links ADD COLUMN append_click_id INTEGER NOT NULL DEFAULT 1;
ALTER TABLE links ADD COLUMN game_id TEXT;
ALTER TABLE clicks ADD COLUMN click_id TEXT;
CREATE INDEX clicks_org_click_id ON clicks (organization_id, click_id) WHERE click_id IS NOT NULL;
