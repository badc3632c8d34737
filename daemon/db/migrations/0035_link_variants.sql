-- Split (A/B) destinations. links.variants: JSON [{destinationUrl, weight}] (2-10, weights adding
-- up to 100), null for none; a smart link's split its fallback. clicks.variant: the variant's
-- destination URL a visit went to, null when it went elsewhere (a rule, a platform target, no
-- variants). Portable SQL (SQLite and PostgreSQL).
ALTER TABLE links ADD COLUMN variants TEXT;
ALTER TABLE clicks ADD COLUMN variant TEXT;
