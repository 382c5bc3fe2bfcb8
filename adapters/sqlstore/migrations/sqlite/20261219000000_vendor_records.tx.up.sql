-- The vendor record of an account, as in the PostgreSQL schema: one row
-- per (account, vendor) with the contacts and links in fixed-key JSON, and
-- the notes appended to it.
CREATE TABLE IF NOT EXISTS vendor_records (
    account_id     TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    vendor_id      TEXT NOT NULL REFERENCES vendors (id) ON DELETE CASCADE,
    business_owner TEXT NOT NULL DEFAULT '',
    contacts       TEXT NOT NULL,
    links          TEXT NOT NULL,
    updated_at     TEXT,
    updated_by     TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (account_id, vendor_id)
) STRICT;

CREATE TABLE IF NOT EXISTS vendor_record_notes (
    id         TEXT NOT NULL PRIMARY KEY,
    account_id TEXT NOT NULL,
    vendor_id  TEXT NOT NULL,
    author     TEXT NOT NULL,
    created_at TEXT NOT NULL,
    text       TEXT NOT NULL,
    FOREIGN KEY (account_id, vendor_id) REFERENCES vendor_records (account_id, vendor_id) ON DELETE CASCADE
) STRICT;
CREATE INDEX IF NOT EXISTS vendor_record_notes_record_idx ON vendor_record_notes (account_id, vendor_id, created_at, id);
