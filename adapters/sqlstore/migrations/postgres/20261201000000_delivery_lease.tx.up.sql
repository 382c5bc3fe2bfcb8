-- Vetted schema, version 3: mail claims expire (issue 13). Forward-only and
-- idempotent like the versions before it: every statement may run again.
--
-- A delivery key used to be claimed once and for good, so a worker that died
-- between the claim and the send lost that mail. Now the claim records when
-- the mail was sent: a claim older than the lease and never marked sent is
-- taken over by the next run of the job, which sends it.
--
-- Keys claimed before this version are taken as sent (the default is the
-- time of the migration, filled into the existing rows once), as the old
-- code took them: their jobs have finished, so nothing would claim them again.
ALTER TABLE deliveries ADD COLUMN IF NOT EXISTS sent_at timestamptz DEFAULT now();
ALTER TABLE deliveries ALTER COLUMN sent_at DROP DEFAULT;
