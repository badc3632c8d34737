-- The master key's fingerprint (HMAC-SHA256 of a fixed label under the key, hex; never the key),
-- recorded at the first start (or the first after this upgrade): a start with another key is then
-- refused, instead of serving while no sealed secret opens. One row.
CREATE TABLE master_key_fingerprint (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  fingerprint TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
