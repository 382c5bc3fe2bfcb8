-- Review policies (issue 22), as in the PostgreSQL schema: an account's
-- cadence in months per tier, its reminder offsets in days before the due
-- date, and whether overdue reminders repeat weekly. An account without a
-- row has the default policy.
CREATE TABLE IF NOT EXISTS review_policies (
    account_id        TEXT    NOT NULL PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    critical_months   INTEGER NOT NULL,
    high_months       INTEGER NOT NULL,
    medium_months     INTEGER NOT NULL,
    low_months        INTEGER NOT NULL,
    not_tiered_months INTEGER NOT NULL,
    reminder_offsets  TEXT    NOT NULL,
    repeat_overdue    INTEGER NOT NULL,
    updated_at        TEXT    NOT NULL,
    updated_by        TEXT    NOT NULL DEFAULT ''
) STRICT;
