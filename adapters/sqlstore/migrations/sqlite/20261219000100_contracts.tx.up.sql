-- Contracts of an account with the vendors on its lists, as in the
-- PostgreSQL schema: civil dates as text (YYYY-MM-DD), annual_value the
-- exact decimal text ('' for none), services a JSON array of {name, type};
-- nothing derived is stored.
CREATE TABLE IF NOT EXISTS contracts (
    id                         TEXT    NOT NULL PRIMARY KEY,
    account_id                 TEXT    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    vendor_id                  TEXT    NOT NULL,
    reference                  TEXT    NOT NULL DEFAULT '',
    start_date                 TEXT    NOT NULL,
    end_date                   TEXT    NOT NULL,
    auto_renew                 INTEGER NOT NULL DEFAULT 0,
    notice_period_days         INTEGER NOT NULL DEFAULT 0,
    annual_value               TEXT    NOT NULL DEFAULT '',
    currency                   TEXT    NOT NULL DEFAULT '',
    governing_law              TEXT    NOT NULL DEFAULT '',
    dpa_signed                 INTEGER NOT NULL DEFAULT 0,
    services                   TEXT    NOT NULL DEFAULT '[]',
    supports_critical_function INTEGER NOT NULL DEFAULT 0,
    lei                        TEXT    NOT NULL DEFAULT '',
    created_at                 TEXT    NOT NULL,
    updated_at                 TEXT    NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS contracts_account_idx ON contracts (account_id, end_date, created_at, id);
CREATE INDEX IF NOT EXISTS contracts_account_vendor_idx ON contracts (account_id, vendor_id);
