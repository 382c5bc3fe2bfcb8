-- Evidence is written once (issues 19 and 26): a document keeps the SHA-256
-- of the file that was stored, next to its size. Empty while pending, and
-- for documents uploaded before this version.
ALTER TABLE documents ADD COLUMN IF NOT EXISTS sha256 text NOT NULL DEFAULT '';
