-- QR codes as resources: one styled code per flyer or poster, for a link or a smart link (both
-- rows of `links`), with its own scan counter. The encoded URL is computed from the link (so it
-- follows a new short code or domain); deleting the link deletes its codes. style is the stored
-- JSON {foreground, background, errorCorrection, margin, logo (data URL or null)}. Portable SQL.
CREATE TABLE qr_codes (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  link_id TEXT NOT NULL REFERENCES links(id) ON DELETE CASCADE,
  title TEXT,
  style TEXT NOT NULL,
  scans BIGINT NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX qr_codes_org_link ON qr_codes (organization_id, link_id);
CREATE INDEX qr_codes_link ON qr_codes (link_id);
