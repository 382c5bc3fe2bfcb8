-- The vendor record of an account: one row per (account, vendor), shared by
-- all the account's lists, with the business owner, the contacts and links
-- in fixed-key JSON (rows_records.go), and the notes appended to it.
CREATE TABLE IF NOT EXISTS vendor_records (
    account_id     uuid        NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    vendor_id      uuid        NOT NULL REFERENCES vendors (id) ON DELETE CASCADE,
    business_owner text        NOT NULL DEFAULT '',
    contacts       jsonb       NOT NULL,
    links          jsonb       NOT NULL,
    updated_at     timestamptz,
    updated_by     text        NOT NULL DEFAULT '',
    PRIMARY KEY (account_id, vendor_id)
);

CREATE TABLE IF NOT EXISTS vendor_record_notes (
    id         uuid        NOT NULL PRIMARY KEY,
    account_id uuid        NOT NULL,
    vendor_id  uuid        NOT NULL,
    author     text        NOT NULL,
    created_at timestamptz NOT NULL,
    text       text        NOT NULL,
    FOREIGN KEY (account_id, vendor_id) REFERENCES vendor_records (account_id, vendor_id) ON DELETE CASCADE
);
CREATE INDEX IF NOT EXISTS vendor_record_notes_record_idx ON vendor_record_notes (account_id, vendor_id, created_at, id);
