-- Bounds on what a hostile client can make the daemon keep. Both engines; integer Unix ms.

-- How many rules fired on a fraud event; triggered_rules keeps the first names only.
ALTER TABLE fraud_events ADD COLUMN triggered_count INTEGER NOT NULL DEFAULT 0;

-- When a campaign took its (ad network, source identifier) pair: set at creation and whenever the
-- pair changes. On the shared domain the oldest claim of a pair decides which organization gets
-- its postbacks.
ALTER TABLE skan_campaigns ADD COLUMN claimed_at BIGINT NOT NULL DEFAULT 0;
UPDATE skan_campaigns SET claimed_at = created_at;

-- Postbacks anyone can post (unverified, or matched to no campaign) are held within a count and a
-- byte cap, the oldest dropped first: held = 1 for those, stored_bytes the size of the stored JSON.
ALTER TABLE skan_postbacks ADD COLUMN held INTEGER NOT NULL DEFAULT 0;
ALTER TABLE skan_postbacks ADD COLUMN stored_bytes INTEGER NOT NULL DEFAULT 0;
UPDATE skan_postbacks
  SET held = CASE WHEN verified = 0 OR campaign_id IS NULL THEN 1 ELSE 0 END,
      stored_bytes = length(payload);
CREATE INDEX skan_postbacks_held ON skan_postbacks (held, received_at, id, stored_bytes);
