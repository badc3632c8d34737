-- Issue 17: the quotas' counters shared by every linkd process on one database, one row per
-- bucket and fixed window (daemon/http/rate-limit-store.ts). PostgreSQL's text of 0015: the same
-- table, UNLOGGED (counters are not worth a write-ahead-log record; a crash only forgives the
-- current windows). Not copied by `linkd migrate-data`.
CREATE UNLOGGED TABLE rate_limit_counters (
  bucket TEXT NOT NULL,
  window_start BIGINT NOT NULL,
  window_end BIGINT NOT NULL,
  count BIGINT NOT NULL,
  PRIMARY KEY (bucket, window_start)
);
