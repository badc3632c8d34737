-- A host may be claimed (added, not yet verified) by several organizations; it is unique among
-- verified domains (the first organization to verify wins) and within one organization. SQLite
-- cannot drop the column's UNIQUE constraint, so the table is rebuilt (no table refers to it);
-- PostgreSQL drops the constraint (postgres/0029_domain_claims.sql).
-- claim_lost_at: when another organization verified the host first (this claim then failed).
CREATE TABLE custom_domains_claims (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  domain TEXT NOT NULL,
  verification_status TEXT NOT NULL,
  verification_method TEXT NOT NULL,
  challenge_token TEXT NOT NULL,
  record_checks TEXT,
  last_checked_at BIGINT,
  verified_at BIGINT,
  is_default INTEGER NOT NULL DEFAULT 0,
  root_redirect_url TEXT,
  ssl_status TEXT,
  ssl_error TEXT,
  cert_pem TEXT,
  cert_key_enc TEXT,
  cert_issuer TEXT,
  cert_serial TEXT,
  cert_not_before BIGINT,
  ssl_expires_at BIGINT,
  ssl_renewed_at BIGINT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  cert_order_until BIGINT,
  app_links TEXT,
  file_check TEXT,
  claim_lost_at BIGINT
);
INSERT INTO custom_domains_claims (id, organization_id, domain, verification_status, verification_method,
  challenge_token, record_checks, last_checked_at, verified_at, is_default, root_redirect_url, ssl_status,
  ssl_error, cert_pem, cert_key_enc, cert_issuer, cert_serial, cert_not_before, ssl_expires_at,
  ssl_renewed_at, created_at, updated_at, cert_order_until, app_links, file_check)
SELECT id, organization_id, domain, verification_status, verification_method, challenge_token,
  record_checks, last_checked_at, verified_at, is_default, root_redirect_url, ssl_status, ssl_error,
  cert_pem, cert_key_enc, cert_issuer, cert_serial, cert_not_before, ssl_expires_at, ssl_renewed_at,
  created_at, updated_at, cert_order_until, app_links, file_check
FROM custom_domains;
DROP TABLE custom_domains;
ALTER TABLE custom_domains_claims RENAME TO custom_domains;
CREATE INDEX custom_domains_org_created ON custom_domains (organization_id, created_at, id);
CREATE INDEX custom_domains_verification ON custom_domains (verification_status, created_at);
CREATE INDEX custom_domains_ssl ON custom_domains (ssl_status, ssl_expires_at);
CREATE UNIQUE INDEX custom_domains_verified_host ON custom_domains (domain) WHERE verification_status = 'verified';
CREATE UNIQUE INDEX custom_domains_org_host ON custom_domains (organization_id, domain);
