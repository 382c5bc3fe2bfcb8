-- Review policies (issue 22): an account's cadence in months per tier, its
-- reminder offsets in days before the due date, and whether overdue
-- reminders repeat weekly. An account without a row has the default policy.
CREATE TABLE IF NOT EXISTS review_policies (
    account_id        uuid        NOT NULL PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    critical_months   integer     NOT NULL,
    high_months       integer     NOT NULL,
    medium_months     integer     NOT NULL,
    low_months        integer     NOT NULL,
    not_tiered_months integer     NOT NULL,
    reminder_offsets  jsonb       NOT NULL,
    repeat_overdue    boolean     NOT NULL,
    updated_at        timestamptz NOT NULL,
    updated_by        text        NOT NULL DEFAULT ''
);
