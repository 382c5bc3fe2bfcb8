-- The review lifecycle (issue 22): an assessment's tier, the date by which
-- the condition of a conditional approval must be met, and when its status
-- last became approved, conditional approval or rejected (set by the writer).
-- Due dates are not stored: they are computed from these and the policy in
-- force, so that a policy change moves them all at once.
ALTER TABLE assessments ADD COLUMN IF NOT EXISTS tier             text NOT NULL DEFAULT '';
ALTER TABLE assessments ADD COLUMN IF NOT EXISTS condition_due_at timestamptz;
ALTER TABLE assessments ADD COLUMN IF NOT EXISTS last_reviewed_at timestamptz;
-- Decided before this version: the last save is the best record there is.
UPDATE assessments SET last_reviewed_at = updated_at
 WHERE last_reviewed_at IS NULL AND status IN ('approved', 'conditional approval', 'rejected');
