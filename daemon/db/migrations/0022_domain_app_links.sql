-- What a custom domain's /.well-known/apple-app-site-association and assetlinks.json say: the
-- AppLinks object as JSON text ({ios, android}), NULL when none is set. Both engines.
ALTER TABLE custom_domains ADD COLUMN app_links TEXT;
