-- The incidents area's store (as PostgreSQL's 20261218000100): the keys of
-- incidents (ord keeps the order they were given in), the state of each
-- platform-wide source between polls, and the possible matches a platform
-- admin decides (draft is the incident a confirmation makes, as JSON with
-- the keys rows_incidents.go fixes). The columns incidents.match and
-- .sources are added by the Go migration 20261218000000_incident_merge.go.
CREATE TABLE IF NOT EXISTS incident_keys (
    incident_id TEXT    NOT NULL REFERENCES incidents (id) ON DELETE CASCADE,
    vendor_id   TEXT    NOT NULL,
    key         TEXT    NOT NULL,
    ord         INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (incident_id, key)
) STRICT;
CREATE INDEX IF NOT EXISTS incident_keys_vendor_key_idx ON incident_keys (vendor_id, key);

CREATE TABLE IF NOT EXISTS incident_sources (
    key            TEXT    NOT NULL PRIMARY KEY,
    etag           TEXT    NOT NULL DEFAULT '',
    last_modified  TEXT    NOT NULL DEFAULT '',
    polled         INTEGER NOT NULL DEFAULT 0,
    last_polled_at TEXT,
    last_result    TEXT    NOT NULL DEFAULT '',
    last_error     TEXT    NOT NULL DEFAULT ''
) STRICT;

CREATE TABLE IF NOT EXISTS possible_matches (
    id          TEXT NOT NULL PRIMARY KEY,
    key         TEXT NOT NULL UNIQUE,
    vendor_id   TEXT NOT NULL REFERENCES vendors (id) ON DELETE CASCADE,
    vendor_name TEXT NOT NULL DEFAULT '',
    draft       TEXT NOT NULL,
    status      TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    decided_at  TEXT,
    decided_by  TEXT NOT NULL DEFAULT '',
    incident_id TEXT
) STRICT;
CREATE INDEX IF NOT EXISTS possible_matches_status_idx ON possible_matches (status, created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS possible_matches_vendor_idx ON possible_matches (vendor_id);
