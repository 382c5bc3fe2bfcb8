-- How many of a scan's checks ran, of how many (issue 31): the console
-- shows each scan's grade with it and withholds a grade made from too few.
-- Null for the scans recorded before: their coverage is unknown.
ALTER TABLE rating_history ADD COLUMN IF NOT EXISTS checks_run integer;
ALTER TABLE rating_history ADD COLUMN IF NOT EXISTS checks_total integer;
