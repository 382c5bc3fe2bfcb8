-- Review reminder keys (issue 22), as in the PostgreSQL schema: a reminder
-- queued for an assessment, due date, window and recipient, or a recipient's
-- opt-out of an account's reminders; the primary key sends each once.
CREATE TABLE IF NOT EXISTS reminder_keys (
    key        TEXT NOT NULL PRIMARY KEY,
    created_at TEXT NOT NULL
) STRICT;
