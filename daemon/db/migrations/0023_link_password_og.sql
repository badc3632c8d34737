-- Password-protected links and Open Graph previews. Portable SQL (SQLite and PostgreSQL).
-- password_hash: `scrypt$N$r$p$salt$hash` (daemon/password.ts), never the password itself.
-- og: JSON {title, description, imageUrl} for link-preview crawlers, or null.
ALTER TABLE links ADD COLUMN password_hash TEXT;
ALTER TABLE links ADD COLUMN og TEXT;
