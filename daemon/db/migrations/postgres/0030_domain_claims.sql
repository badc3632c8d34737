-- A host may be claimed (added, not yet verified) by several organizations; it is unique among
-- verified domains (the first organization to verify wins) and within one organization.
-- claim_lost_at: when another organization verified the host first (this claim then failed).
ALTER TABLE custom_domains DROP CONSTRAINT custom_domains_domain_key;
ALTER TABLE custom_domains ADD COLUMN claim_lost_at BIGINT;
CREATE UNIQUE INDEX custom_domains_verified_host ON custom_domains (domain) WHERE verification_status = 'verified';
CREATE UNIQUE INDEX custom_domains_org_host ON custom_domains (organization_id, domain);
