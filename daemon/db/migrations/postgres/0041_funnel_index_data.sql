-- PostgreSQL's text of 0041: nothing. Its b-tree entries are bounded in size (an event's data
-- may be larger), and its funnel scans a step's events by hash join, reading their rows anyway.
SELECT 1;
