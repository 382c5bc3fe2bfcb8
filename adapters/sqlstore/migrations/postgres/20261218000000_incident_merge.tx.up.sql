-- Incidents merged from several items: the evidence that tied an item of a
-- platform-wide source to the vendor (null for status-page, feed and manual
-- incidents) and every item merged into the incident, first seen first. An
-- incident written before has no sources: it reads as the one item of its
-- source, url and published_at.
ALTER TABLE incidents ADD COLUMN IF NOT EXISTS match jsonb;
ALTER TABLE incidents ADD COLUMN IF NOT EXISTS sources jsonb NOT NULL DEFAULT '[]';
