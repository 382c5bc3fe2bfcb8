-- The attestations area's store, as in the PostgreSQL schema: typed
-- evidence records on a vendor, an account's own (account_id set) or the
-- directory's (account_id NULL, shared with every account).
CREATE TABLE IF NOT EXISTS attestations (
    id           TEXT NOT NULL PRIMARY KEY,
    account_id   TEXT REFERENCES accounts (id) ON DELETE CASCADE,
    vendor_id    TEXT NOT NULL REFERENCES vendors (id) ON DELETE CASCADE,
    kind         TEXT NOT NULL,
    details      TEXT NOT NULL,
    object_key   TEXT NOT NULL,
    content_type TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    created_by   TEXT NOT NULL DEFAULT ''
) STRICT;
CREATE INDEX IF NOT EXISTS attestations_vendor_idx ON attestations (vendor_id, created_at, id);
CREATE INDEX IF NOT EXISTS attestations_account_idx ON attestations (account_id, created_at, id);
