-- Reads that scale (issue 24): what a list read shows of each vendor's
-- profile, the status of each enrichment section and the security rating,
-- is kept in plain columns beside the JSON it comes from, written with every
-- save, so that a list of 500 parses no JSON object per entry. Filled here
-- for the profiles saved before this version.
ALTER TABLE profiles ADD COLUMN IF NOT EXISTS section_statuses text NOT NULL DEFAULT '[]';
ALTER TABLE profiles ADD COLUMN IF NOT EXISTS security_rating integer;
UPDATE profiles SET
	section_statuses = coalesce((SELECT jsonb_agg(s.value -> 'status' ORDER BY s.key) FROM jsonb_each(enrichment) AS s), '[]'::jsonb)::text,
	security_rating = (scores ->> 'security_rating')::int;
