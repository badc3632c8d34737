-- File verification of custom domains: the last fetch of the verification file as JSON text
-- ({status, reason}), NULL before the first or for domains verified by DNS. Both engines.
ALTER TABLE custom_domains ADD COLUMN file_check TEXT;
