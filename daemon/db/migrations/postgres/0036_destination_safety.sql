-- Destination safety: feed files (hosts, one domain a line, URLhaus CSV) an organization uploads;
-- a link destination whose host or a parent domain is listed is refused or flagged. One row of
-- safety_lists per upload: `list_id` is the list's public id, kept when a file of the same name
-- replaces it; the entries load under a new upload in 'loading' (invisible), which becomes
-- 'ready' and the one it replaces 'deleting' in one transaction; 'deleting' entries are removed
-- in chunks. Hosts are looked up by host (the index), at writes and in the re-check job only.
CREATE TABLE safety_lists (
  id TEXT PRIMARY KEY,
  list_id TEXT NOT NULL,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  format TEXT NOT NULL,
  entries BIGINT NOT NULL DEFAULT 0,
  skipped BIGINT NOT NULL DEFAULT 0,
  -- loading | ready | deleting
  state TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX safety_lists_ready_name ON safety_lists (organization_id, name) WHERE state = 'ready';
CREATE INDEX safety_lists_org_state ON safety_lists (organization_id, state);

-- The primary key serves deletes by upload, the host index the lookups.
CREATE TABLE safety_list_hosts (
  upload_id TEXT NOT NULL REFERENCES safety_lists(id) ON DELETE CASCADE,
  host TEXT NOT NULL,
  PRIMARY KEY (upload_id, host)
);
CREATE INDEX safety_list_hosts_host ON safety_list_hosts (host);

-- The link's destination host found on a list (and the list's name) by the re-check; null: not flagged.
ALTER TABLE links ADD COLUMN flagged_host TEXT;
ALTER TABLE links ADD COLUMN flagged_list TEXT;
ALTER TABLE links ADD COLUMN flagged_at BIGINT;

-- What a webhook endpoint posts: json (the event envelope), slack ({text, blocks}) or discord ({content, embeds}).
ALTER TABLE webhooks ADD COLUMN format TEXT NOT NULL DEFAULT 'json';
