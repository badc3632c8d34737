-- Issue 17: the quotas' counters shared by every linkd process on one database, one row per
-- bucket and fixed window (daemon/http/rate-limit-store.ts). Used on PostgreSQL, whose text of
-- this migration makes the table UNLOGGED (counters are not worth a write-ahead-log record; a
-- crash only forgives the current windows). One process on SQLite counts in memory and leaves
-- this table empty. Not copied by `linkd migrate-data`.
CREATE TABLE rate_limit_counters (
  bucket TEXT NOT NULL,
  window_start BIGINT NOT NULL,
  window_end BIGINT NOT NULL,
  count BIGINT NOT NULL,
  PRIMARY KEY (bucket, window_start)
);
