-- Custom domains, their certificates, and the ACME account and HTTP-01 challenge tokens.
-- Portable SQL (SQLite and PostgreSQL). Private keys are stored encrypted (SecretBox, AES-256-GCM).
-- record_checks: JSON of the last DNS check (per record, per resolver).

CREATE TABLE custom_domains (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  domain TEXT NOT NULL UNIQUE,
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
  updated_at BIGINT NOT NULL
);
CREATE INDEX custom_domains_org_created ON custom_domains (organization_id, created_at, id);
CREATE INDEX custom_domains_verification ON custom_domains (verification_status, created_at);
CREATE INDEX custom_domains_ssl ON custom_domains (ssl_status, ssl_expires_at);

-- One ACME account per directory URL: created once, its key kept (encrypted).
CREATE TABLE acme_accounts (
  directory_url TEXT PRIMARY KEY,
  account_key_enc TEXT NOT NULL,
  account_url TEXT,
  created_at BIGINT NOT NULL
);

-- HTTP-01 tokens being validated, answered at /.well-known/acme-challenge/:token by any instance.
CREATE TABLE acme_challenges (
  token TEXT PRIMARY KEY,
  key_authorization TEXT NOT NULL,
  expires_at BIGINT NOT NULL
);
