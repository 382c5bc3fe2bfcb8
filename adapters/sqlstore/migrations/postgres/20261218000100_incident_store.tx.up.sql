-- The incidents area's store. incident_keys: the keys that merge items into
-- an incident and the source: key of each item's source, looked up per
-- vendor (merging) and by incident (search by source); ord keeps the order
-- they were given in. incident_sources: what the poller keeps of each
-- platform-wide source between polls. possible_matches: items that named a
-- vendor without enough evidence, kept for a platform admin to decide; key
-- (the vendor and the item) makes reading a source again add none twice,
-- and draft is the incident a confirmation makes (rows_incidents.go fixes
-- its keys).
CREATE TABLE IF NOT EXISTS incident_keys (
    incident_id uuid    NOT NULL REFERENCES incidents (id) ON DELETE CASCADE,
    vendor_id   uuid    NOT NULL,
    key         text    NOT NULL,
    ord         integer NOT NULL DEFAULT 0,
    PRIMARY KEY (incident_id, key)
);
CREATE INDEX IF NOT EXISTS incident_keys_vendor_key_idx ON incident_keys (vendor_id, key);

CREATE TABLE IF NOT EXISTS incident_sources (
    key            text        PRIMARY KEY,
    etag           text        NOT NULL DEFAULT '',
    last_modified  text        NOT NULL DEFAULT '',
    polled         boolean     NOT NULL DEFAULT false,
    last_polled_at timestamptz,
    last_result    text        NOT NULL DEFAULT '',
    last_error     text        NOT NULL DEFAULT ''
);

CREATE TABLE IF NOT EXISTS possible_matches (
    id          uuid        PRIMARY KEY,
    key         text        NOT NULL UNIQUE,
    vendor_id   uuid        NOT NULL REFERENCES vendors (id) ON DELETE CASCADE,
    vendor_name text        NOT NULL DEFAULT '',
    draft       jsonb       NOT NULL,
    status      text        NOT NULL,
    created_at  timestamptz NOT NULL,
    decided_at  timestamptz,
    decided_by  text        NOT NULL DEFAULT '',
    incident_id uuid
);
CREATE INDEX IF NOT EXISTS possible_matches_status_idx ON possible_matches (status, created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS possible_matches_vendor_idx ON possible_matches (vendor_id);
