-- Review calendar keys (issue 22), as in the PostgreSQL schema: the secret
-- behind a member's personal calendar feed link; deleting the row revokes it.
CREATE TABLE IF NOT EXISTS calendar_keys (
    id         TEXT NOT NULL PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at TEXT NOT NULL
) STRICT;
CREATE UNIQUE INDEX IF NOT EXISTS calendar_keys_member_key ON calendar_keys (account_id, user_id);
