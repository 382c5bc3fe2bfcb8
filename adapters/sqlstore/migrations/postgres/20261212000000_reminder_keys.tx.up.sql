-- Review reminder keys (issue 22): a reminder queued for an assessment, due
-- date, window and recipient, or a recipient's opt-out of an account's
-- reminders. The primary key is what sends each reminder once, however many
-- workers run the periodic job at once.
CREATE TABLE IF NOT EXISTS reminder_keys (
    key        text        NOT NULL PRIMARY KEY,
    created_at timestamptz NOT NULL
);
