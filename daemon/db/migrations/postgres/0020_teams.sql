-- Teams: members with roles, invitations (tokens stored hashed), every API key owned by a member,
-- and the audit log of successful writes. Both engines; integer Unix ms.

CREATE TABLE members (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  email TEXT,
  role TEXT NOT NULL,
  invited_by TEXT,
  joined_at BIGINT NOT NULL,
  -- Set when removed: the row stays so the audit log can still name who did what.
  removed_at BIGINT
);
CREATE INDEX members_org ON members (organization_id, removed_at, joined_at);

CREATE TABLE team_invitations (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  email TEXT NOT NULL,
  role TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  status TEXT NOT NULL,
  invited_by TEXT,
  expires_at BIGINT NOT NULL,
  created_at BIGINT NOT NULL,
  accepted_at BIGINT,
  member_id TEXT
);
CREATE INDEX team_invitations_org ON team_invitations (organization_id, created_at);

ALTER TABLE api_keys ADD COLUMN member_id TEXT;
CREATE INDEX api_keys_member ON api_keys (member_id);

-- Every organization gets its Owner member; every existing key belongs to it.
INSERT INTO members (id, organization_id, name, email, role, invited_by, joined_at, removed_at)
  SELECT 'mem_' || substr(md5(random()::text || id), 1, 20), id, 'Owner', NULL, 'owner', NULL, created_at, NULL
  FROM organizations;
UPDATE api_keys SET member_id =
  (SELECT m.id FROM members m WHERE m.organization_id = api_keys.organization_id);

CREATE TABLE audit_log (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL,
  at BIGINT NOT NULL,
  member_id TEXT,
  key_id TEXT,
  action TEXT NOT NULL,
  resource_type TEXT NOT NULL,
  resource_id TEXT,
  ip TEXT,
  status_code INTEGER NOT NULL
);
CREATE INDEX audit_log_org_at ON audit_log (organization_id, at, id);
CREATE INDEX audit_log_at ON audit_log (at);
