-- A failing webhook endpoint backs off as a whole (the sender stops hammering a dead receiver):
-- failed attempts in a row since its last success, and until when it gets no new attempt. Both
-- engines; integer Unix ms.
ALTER TABLE webhooks ADD COLUMN failed_attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE webhooks ADD COLUMN paused_until BIGINT NOT NULL DEFAULT 0;

-- A claim reads the attempts in flight (locked_until in the future) without scanning the due
-- rows, and the due rows of one webhook without reading those of the others (a webhook that
-- cannot take more, with a backlog at the head of the queue, no longer costs a scan per claim).
CREATE INDEX webhook_deliveries_claimed ON webhook_deliveries (locked_until);
CREATE INDEX webhook_deliveries_webhook_due ON webhook_deliveries (webhook_id, status, next_attempt_at);

-- The due retries of one webhook (pending deliveries tried at least once) without reading its
-- untried backlog: a backing-off endpoint holds back only the untried ones, its retries keep their
-- schedule and are found behind that backlog. A query uses it when it repeats the condition as
-- literals (SQLite does not match bound parameters); status is a column too, so that SQLite
-- prefers it to webhook_deliveries_webhook_due for such a query.
CREATE INDEX webhook_deliveries_webhook_retries ON webhook_deliveries (webhook_id, status, next_attempt_at)
  WHERE status = 'pending' AND attempts > 0;
