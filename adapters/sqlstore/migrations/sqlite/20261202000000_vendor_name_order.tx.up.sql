-- Vetted schema, version 4: the directory in name order (issue 14).
-- Forward-only and idempotent like the versions before it.
--
-- GET /vendors/all pages the directory by name in byte order (keyset: the
-- last name of a page is the cursor of the next). The unique index is on the
-- folded name_key; this one serves ORDER BY name (BINARY, byte order) and
-- the name > cursor condition.
CREATE INDEX IF NOT EXISTS vendors_name_idx ON vendors (name);
