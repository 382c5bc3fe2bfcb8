-- Website discovery and rating history (issue 23), as in the PostgreSQL
-- schema. profiles.website is where the website came from and the evidence
-- of the last discovery (JSON, null until either is known).
ALTER TABLE profiles ADD COLUMN website TEXT;

-- Every scan's rating, grade and finding set, and the changes that
-- mattered since the scan before it (an event when not empty).
CREATE TABLE IF NOT EXISTS rating_history (
    id              TEXT    NOT NULL PRIMARY KEY,
    vendor_id       TEXT    NOT NULL REFERENCES vendors (id) ON DELETE CASCADE,
    scanned_at      TEXT    NOT NULL,
    rating          INTEGER,
    grade           TEXT    NOT NULL DEFAULT '',
    findings        TEXT    NOT NULL DEFAULT '[]',
    cert_expires_at TEXT,
    changes         TEXT    NOT NULL DEFAULT '[]',
    is_event        INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX IF NOT EXISTS rating_history_vendor_idx ON rating_history (vendor_id, scanned_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS rating_history_event_idx ON rating_history (vendor_id, scanned_at DESC) WHERE is_event = 1;
