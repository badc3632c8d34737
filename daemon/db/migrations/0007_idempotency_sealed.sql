-- Stored idempotent responses are sealed with the master key from now on (issue 10): their bodies
-- carry full API keys, webhook secrets and header values, SDK keys and signing secrets.
-- Portable SQL (SQLite and PostgreSQL).
--
-- Rows written before hold those bodies in plain text. They live 24 h only, so they are dropped
-- rather than kept readable: a client retrying across the upgrade runs its request once more.
DELETE FROM idempotency_records;

-- The id of the resource a stored response names (its top-level "id"), kept in the clear (an id
-- is no secret) so that a response can still be found and forgotten, e.g. by the GDPR purge,
-- once its body is sealed.
ALTER TABLE idempotency_records ADD COLUMN resource_id TEXT;
CREATE INDEX idempotency_records_resource ON idempotency_records (resource_id);
