-- Short links and their tags. Portable SQL (SQLite and PostgreSQL).
-- domain_key is '' for the shared short domain, later the custom domain id (issue 5).
-- clicks counts human clicks, maintained by the click recorder (never by scanning clicks).

CREATE TABLE links (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  domain_key TEXT NOT NULL,
  custom_domain_id TEXT,
  short_code TEXT NOT NULL,
  destination_url TEXT NOT NULL,
  title TEXT,
  status TEXT NOT NULL,
  redirect_type INTEGER NOT NULL DEFAULT 302,
  tags TEXT NOT NULL,
  metadata TEXT NOT NULL,
  expires_at BIGINT,
  clicks BIGINT NOT NULL DEFAULT 0,
  qr_created_at BIGINT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  UNIQUE (domain_key, short_code)
);
CREATE INDEX links_org_created ON links (organization_id, created_at, id);
CREATE INDEX links_org_clicks ON links (organization_id, clicks, id);
CREATE INDEX links_expiry ON links (status, expires_at);

CREATE TABLE link_tags (
  link_id TEXT NOT NULL REFERENCES links(id) ON DELETE CASCADE,
  organization_id TEXT NOT NULL,
  tag TEXT NOT NULL,
  PRIMARY KEY (link_id, tag)
);
CREATE INDEX link_tags_org_tag ON link_tags (organization_id, tag, link_id);
