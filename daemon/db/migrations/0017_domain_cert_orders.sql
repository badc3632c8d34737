-- Issue 17: starting a certificate order is a claim on the domain's row, shared by every path
-- that orders (verify, recheck-domains, renew-certificates) and every linkd process: a guarded
-- UPDATE sets cert_order_until (ms) when it is empty or past, so one order runs per domain; the
-- order's outcome clears it, and the claim of a process that died expires at cert_order_until.
ALTER TABLE custom_domains ADD COLUMN cert_order_until BIGINT;
