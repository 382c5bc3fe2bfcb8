-- Review calendar keys (issue 22): the secret behind a member's personal
-- calendar feed link; deleting the row revokes the link.
CREATE TABLE IF NOT EXISTS calendar_keys (
    id         uuid        NOT NULL PRIMARY KEY,
    account_id uuid        NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    user_id    uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS calendar_keys_member_key ON calendar_keys (account_id, user_id);
