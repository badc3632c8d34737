-- GET /api/v1/gaming/gdpr/deletions: an organization's deletion records, newest first.
CREATE INDEX gdpr_deletions_org ON gdpr_deletions (organization_id, created_at, id);
