-- Website discovery and rating history (issue 23). profiles.website is
-- where the website came from and the evidence of the last discovery
-- (null until either is known).
ALTER TABLE profiles ADD COLUMN IF NOT EXISTS website jsonb;

-- Every scan's rating, grade and finding set, and the changes that
-- mattered since the scan before it (an event when not empty).
CREATE TABLE IF NOT EXISTS rating_history (
    id              uuid        NOT NULL PRIMARY KEY,
    vendor_id       uuid        NOT NULL REFERENCES vendors (id) ON DELETE CASCADE,
    scanned_at      timestamptz NOT NULL,
    rating          integer,
    grade           text        NOT NULL DEFAULT '',
    findings        jsonb       NOT NULL DEFAULT '[]',
    cert_expires_at timestamptz,
    changes         jsonb       NOT NULL DEFAULT '[]',
    is_event        boolean     NOT NULL DEFAULT false
);
CREATE INDEX IF NOT EXISTS rating_history_vendor_idx ON rating_history (vendor_id, scanned_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS rating_history_event_idx ON rating_history (vendor_id, scanned_at DESC) WHERE is_event;
