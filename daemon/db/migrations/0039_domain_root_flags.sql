-- The host of a custom domain's root redirect found on a safety list (and the list's name) by the
-- re-check, as links' flagged_host/flagged_list/flagged_at (0036); null: not flagged.
ALTER TABLE custom_domains ADD COLUMN root_flagged_host TEXT;
ALTER TABLE custom_domains ADD COLUMN root_flagged_list TEXT;
ALTER TABLE custom_domains ADD COLUMN root_flagged_at BIGINT;
