-- Vetted schema, version 4: the directory in name order (issue 14).
-- Forward-only and idempotent like the versions before it.
--
-- GET /vendors/all pages the directory by name in byte order (keyset: the
-- last name of a page is the cursor of the next). The unique index is on
-- lower(name); this one serves ORDER BY name COLLATE "C" and the
-- name > cursor condition, so a page costs its own rows, not a sort of the
-- whole directory.
CREATE INDEX IF NOT EXISTS vendors_name_bytes_idx ON vendors (name COLLATE "C");
