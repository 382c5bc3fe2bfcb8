-- The attestations area's store: typed evidence records on a vendor, an
-- account's own (account_id set, deleted with the account) or the
-- directory's (account_id NULL, shared with every account). details holds
-- the fields of the record's kind (rows_attestations.go fixes its keys);
-- object_key is where its file goes in the evidence blob store.
CREATE TABLE IF NOT EXISTS attestations (
    id           uuid        PRIMARY KEY,
    account_id   uuid        REFERENCES accounts (id) ON DELETE CASCADE,
    vendor_id    uuid        NOT NULL REFERENCES vendors (id) ON DELETE CASCADE,
    kind         text        NOT NULL,
    details      jsonb       NOT NULL,
    object_key   text        NOT NULL,
    content_type text        NOT NULL,
    created_at   timestamptz NOT NULL,
    created_by   text        NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS attestations_vendor_idx ON attestations (vendor_id, created_at, id);
CREATE INDEX IF NOT EXISTS attestations_account_idx ON attestations (account_id, created_at, id);
