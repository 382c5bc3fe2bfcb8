-- Contracts of an account with the vendors on its lists. Dates are civil
-- dates as text (YYYY-MM-DD, which sorts as the dates do); annual_value is
-- the exact decimal text ('' for none), never a float; services is a JSON
-- array of {name, type}. Nothing derived (current period, notice deadline,
-- state) is stored: it is computed on every read.
CREATE TABLE IF NOT EXISTS contracts (
    id                         uuid        NOT NULL PRIMARY KEY,
    account_id                 uuid        NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    vendor_id                  uuid        NOT NULL,
    reference                  text        NOT NULL DEFAULT '',
    start_date                 text        NOT NULL,
    end_date                   text        NOT NULL,
    auto_renew                 boolean     NOT NULL DEFAULT false,
    notice_period_days         integer     NOT NULL DEFAULT 0,
    annual_value               text        NOT NULL DEFAULT '',
    currency                   text        NOT NULL DEFAULT '',
    governing_law              text        NOT NULL DEFAULT '',
    dpa_signed                 boolean     NOT NULL DEFAULT false,
    services                   jsonb       NOT NULL DEFAULT '[]',
    supports_critical_function boolean     NOT NULL DEFAULT false,
    lei                        text        NOT NULL DEFAULT '',
    created_at                 timestamptz NOT NULL,
    updated_at                 timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS contracts_account_idx ON contracts (account_id, end_date, created_at, id);
CREATE INDEX IF NOT EXISTS contracts_account_vendor_idx ON contracts (account_id, vendor_id);
