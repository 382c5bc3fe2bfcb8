-- A list's revision (issue 31): the count of changes to its entries, which
-- every entry write adds one to in its unit of work. A list read answers it
-- as its ETag and save-vendors checks If-Match against it, so that an edit
-- made on a stale read is refused rather than undoing what another person
-- saved meanwhile.
ALTER TABLE lists ADD COLUMN IF NOT EXISTS version bigint NOT NULL DEFAULT 0;
-- The name a vendor was added to a list under, when it is not the
-- directory's ("Acme Corp" for Acme): the entry's display_name. Empty when
-- the same.
ALTER TABLE list_entries ADD COLUMN IF NOT EXISTS given_name text NOT NULL DEFAULT '';
