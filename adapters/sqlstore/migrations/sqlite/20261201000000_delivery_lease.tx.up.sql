-- Vetted schema for SQLite, version 2: mail claims expire (issue 13), as in
-- the PostgreSQL schema's version 3. A claim records when its mail was sent:
-- a claim older than the lease and never marked sent is taken over by the
-- next run of the job, which sends it.
--
-- SQLite has no ADD COLUMN IF NOT EXISTS, so the table is rebuilt, which
-- may run again: every statement is harmless the second time. Keys claimed
-- before this version are taken as sent (sent_at = claimed_at), as the old
-- code took them: their jobs have finished, so nothing would claim them again.
CREATE TABLE IF NOT EXISTS deliveries_next (
    key        TEXT NOT NULL PRIMARY KEY,
    claimed_at TEXT NOT NULL,
    sent_at    TEXT
) STRICT;
INSERT OR IGNORE INTO deliveries_next (key, claimed_at, sent_at) SELECT key, claimed_at, claimed_at FROM deliveries;
DROP TABLE deliveries;
ALTER TABLE deliveries_next RENAME TO deliveries;
