-- Fields the original web client sends with assessments: who at compliance
-- handles the review, and when it was submitted and approved (civil dates,
-- 2006-01-02, empty when unset).
ALTER TABLE assessments ADD COLUMN IF NOT EXISTS compliance_contact text NOT NULL DEFAULT '';
ALTER TABLE assessments ADD COLUMN IF NOT EXISTS submission_date    text NOT NULL DEFAULT '';
ALTER TABLE assessments ADD COLUMN IF NOT EXISTS approval_date      text NOT NULL DEFAULT '';
