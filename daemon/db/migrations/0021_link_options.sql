-- Link options. Portable SQL (SQLite and PostgreSQL); integer Unix ms; rules as JSON TEXT.
-- forward_query defaults to 1 for existing links too: the visitor's query reaches the destination.
-- capped_clicks counts the human redirects of a link WITH max_clicks, taken atomically at
-- redirect time (UPDATE ... WHERE capped_clicks < max_clicks); links without it never touch it.
ALTER TABLE links ADD COLUMN expired_url TEXT;
ALTER TABLE links ADD COLUMN max_clicks BIGINT;
ALTER TABLE links ADD COLUMN starts_at BIGINT;
ALTER TABLE links ADD COLUMN forward_query INTEGER NOT NULL DEFAULT 1;
ALTER TABLE links ADD COLUMN rules TEXT;
ALTER TABLE links ADD COLUMN capped_clicks BIGINT NOT NULL DEFAULT 0;
