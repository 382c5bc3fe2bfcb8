-- A list's revision (issue 31): the count of changes to its entries, which
-- every entry write adds one to in its unit of work. A list read answers it
-- as its ETag and save-vendors checks If-Match against it, so that an edit
-- made on a stale read is refused rather than undoing what another person
-- saved meanwhile.
ALTER TABLE lists ADD COLUMN IF NOT EXISTS version bigint NOT NULL DEFAULT 0;
