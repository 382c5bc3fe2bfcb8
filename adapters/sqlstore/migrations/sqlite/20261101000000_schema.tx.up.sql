-- Vetted schema for SQLite, version 1: the tables of the PostgreSQL schema,
-- forward-only and idempotent like it (every statement may run again), in
-- SQLite's own spelling:
--   * Tables are STRICT, so a value of the wrong type is refused, not kept.
--   * ids are canonical UUID text; booleans are INTEGER 0/1; JSON is TEXT.
--   * Times are TEXT in one fixed-width UTC format, 2006-01-02T15:04:05.000000000Z
--     (written by the store's dialect), so they sort as stored and keep nanoseconds.
--   * Names unique case-insensitively carry a name_key column that the store
--     computes in Go (strings.ToLower, as the memory store folds them), because
--     SQLite's lower() folds ASCII only. E-mails are stored lower-case for the
--     same reason.
--   * Foreign keys (PRAGMA foreign_keys=ON on every connection) carry the cascades.

CREATE TABLE IF NOT EXISTS users (
    id             TEXT    NOT NULL PRIMARY KEY,
    subject        TEXT    NOT NULL DEFAULT '',
    email          TEXT    NOT NULL,
    name           TEXT    NOT NULL DEFAULT '',
    email_verified INTEGER NOT NULL DEFAULT 0,
    created_at     TEXT    NOT NULL
) STRICT;
CREATE UNIQUE INDEX IF NOT EXISTS users_email_key ON users (email);
-- Users added by e-mail have no subject until they sign in.
CREATE UNIQUE INDEX IF NOT EXISTS users_subject_key ON users (subject) WHERE subject <> '';

CREATE TABLE IF NOT EXISTS accounts (
    id         TEXT    NOT NULL PRIMARY KEY,
    name       TEXT    NOT NULL,
    name_key   TEXT    NOT NULL,
    active     INTEGER NOT NULL DEFAULT 1,
    personal   INTEGER NOT NULL DEFAULT 0,
    created_at TEXT    NOT NULL
) STRICT;
-- Organization names are unique case-insensitively; every personal space is
-- called "individual", so personal accounts are left out.
CREATE UNIQUE INDEX IF NOT EXISTS accounts_org_name_key ON accounts (name_key) WHERE NOT personal;

CREATE TABLE IF NOT EXISTS members (
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role       TEXT NOT NULL CHECK (role IN ('viewer', 'member', 'admin', 'owner')),
    created_at TEXT NOT NULL,
    PRIMARY KEY (account_id, user_id)
) STRICT;
CREATE INDEX IF NOT EXISTS members_user_idx ON members (user_id);

CREATE TABLE IF NOT EXISTS vendors (
    id          TEXT NOT NULL PRIMARY KEY,
    name        TEXT NOT NULL,
    name_key    TEXT NOT NULL,
    website_url TEXT NOT NULL DEFAULT '',
    domain      TEXT NOT NULL DEFAULT '',
    aliases     TEXT,
    created_at  TEXT NOT NULL
) STRICT;
CREATE UNIQUE INDEX IF NOT EXISTS vendors_name_key ON vendors (name_key);
CREATE INDEX IF NOT EXISTS vendors_domain_idx ON vendors (domain) WHERE domain <> '';

CREATE TABLE IF NOT EXISTS profiles (
    id         TEXT NOT NULL PRIMARY KEY,
    vendor_id  TEXT NOT NULL UNIQUE REFERENCES vendors (id) ON DELETE CASCADE,
    company    TEXT NOT NULL DEFAULT '{}',
    security   TEXT NOT NULL DEFAULT '{}',
    privacy    TEXT NOT NULL DEFAULT '{}',
    maturity   TEXT NOT NULL DEFAULT '{}',
    scores     TEXT NOT NULL DEFAULT '{}',
    enrichment TEXT NOT NULL DEFAULT '{}',
    latest_grc TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS profiles_updated_idx ON profiles (updated_at);

CREATE TABLE IF NOT EXISTS security_instances (
    id          TEXT NOT NULL PRIMARY KEY,
    vendor_id   TEXT NOT NULL REFERENCES vendors (id) ON DELETE CASCADE,
    kind        TEXT NOT NULL,
    category    TEXT NOT NULL,
    code        TEXT NOT NULL,
    title       TEXT NOT NULL,
    severity    TEXT NOT NULL,
    evidence    TEXT NOT NULL DEFAULT '',
    source      TEXT NOT NULL DEFAULT '',
    observed_at TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS security_instances_vendor_idx ON security_instances (vendor_id);

-- The GRC assessment history of a vendor (PostgreSQL's migration
-- 20261124): profiles.latest_grc is the latest, every one made is appended
-- here. Deleting the profile deletes the history (the store does it);
-- deleting the vendor cascades.
CREATE TABLE IF NOT EXISTS grc_assessments (
    id          INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    vendor_id   TEXT    NOT NULL REFERENCES vendors (id) ON DELETE CASCADE,
    assessment  TEXT    NOT NULL,
    assessed_at TEXT    NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS grc_assessments_vendor_idx ON grc_assessments (vendor_id, assessed_at DESC, id DESC);

CREATE TABLE IF NOT EXISTS lists (
    id         TEXT NOT NULL PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    name       TEXT NOT NULL,
    name_key   TEXT NOT NULL,
    created_at TEXT NOT NULL
) STRICT;
CREATE UNIQUE INDEX IF NOT EXISTS lists_account_name_key ON lists (account_id, name_key);

-- Deleting a profile keeps entries: they reference the directory entry.
CREATE TABLE IF NOT EXISTS list_entries (
    list_id        TEXT    NOT NULL REFERENCES lists (id) ON DELETE CASCADE,
    vendor_id      TEXT    NOT NULL REFERENCES vendors (id) ON DELETE CASCADE,
    alerts_enabled INTEGER NOT NULL DEFAULT 1,
    added_at       TEXT    NOT NULL,
    PRIMARY KEY (list_id, vendor_id)
) STRICT;
CREATE INDEX IF NOT EXISTS list_entries_vendor_idx ON list_entries (vendor_id) WHERE alerts_enabled;

-- A product belongs to an entry: taking the vendor off the list removes its
-- products, and a product for a vendor not on the list is refused.
CREATE TABLE IF NOT EXISTS products (
    id         TEXT NOT NULL PRIMARY KEY,
    list_id    TEXT NOT NULL,
    vendor_id  TEXT NOT NULL,
    name       TEXT NOT NULL,
    name_key   TEXT NOT NULL,
    created_at TEXT NOT NULL,
    FOREIGN KEY (list_id, vendor_id) REFERENCES list_entries (list_id, vendor_id) ON DELETE CASCADE
) STRICT;
CREATE UNIQUE INDEX IF NOT EXISTS products_entry_name_key ON products (list_id, vendor_id, name_key);

CREATE TABLE IF NOT EXISTS quota_claims (
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    vendor_id  TEXT NOT NULL REFERENCES vendors (id) ON DELETE CASCADE,
    claimed_at TEXT NOT NULL,
    PRIMARY KEY (account_id, vendor_id)
) STRICT;

CREATE TABLE IF NOT EXISTS assessments (
    id                             TEXT NOT NULL PRIMARY KEY,
    account_id                     TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    list_id                        TEXT NOT NULL REFERENCES lists (id) ON DELETE CASCADE,
    vendor_id                      TEXT NOT NULL REFERENCES vendors (id) ON DELETE CASCADE,
    -- Deleting a profile keeps the assessment; it just loses the link.
    vendor_profile_id              TEXT REFERENCES profiles (id) ON DELETE SET NULL,
    vendor_name                    TEXT NOT NULL DEFAULT '',
    status                         TEXT NOT NULL,
    conditional_approval_condition TEXT NOT NULL DEFAULT '',
    sponsor_business_department    TEXT NOT NULL DEFAULT '',
    sponsor_contact                TEXT NOT NULL DEFAULT '',
    use_case                       TEXT NOT NULL DEFAULT '',
    data_collected                 TEXT,
    compliance_comment             TEXT NOT NULL DEFAULT '',
    -- Fields of the original web client (PostgreSQL adds them in its
    -- migration 20261123): civil dates 2006-01-02, empty when unset.
    compliance_contact             TEXT NOT NULL DEFAULT '',
    submission_date                TEXT NOT NULL DEFAULT '',
    approval_date                  TEXT NOT NULL DEFAULT '',
    created_at                     TEXT NOT NULL,
    created_by                     TEXT NOT NULL DEFAULT '',
    updated_at                     TEXT NOT NULL,
    updated_by                     TEXT NOT NULL DEFAULT ''
) STRICT;
CREATE UNIQUE INDEX IF NOT EXISTS assessments_list_vendor_key ON assessments (list_id, vendor_id);
CREATE INDEX IF NOT EXISTS assessments_account_updated_idx ON assessments (account_id, updated_at DESC);
CREATE INDEX IF NOT EXISTS assessments_vendor_idx ON assessments (vendor_id);
CREATE INDEX IF NOT EXISTS assessments_profile_idx ON assessments (vendor_profile_id) WHERE vendor_profile_id IS NOT NULL;

CREATE TABLE IF NOT EXISTS audit_events (
    id            TEXT NOT NULL PRIMARY KEY,
    assessment_id TEXT NOT NULL REFERENCES assessments (id) ON DELETE CASCADE,
    account_id    TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created_at    TEXT NOT NULL,
    submitted_by  TEXT NOT NULL DEFAULT '',
    changes       TEXT NOT NULL DEFAULT '[]'
) STRICT;
CREATE INDEX IF NOT EXISTS audit_events_assessment_idx ON audit_events (assessment_id, created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS audit_events_account_idx ON audit_events (account_id);

CREATE TABLE IF NOT EXISTS documents (
    id            TEXT    NOT NULL PRIMARY KEY,
    account_id    TEXT    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    assessment_id TEXT    NOT NULL REFERENCES assessments (id) ON DELETE CASCADE,
    file_name     TEXT    NOT NULL,
    content_type  TEXT    NOT NULL,
    size_bytes    INTEGER NOT NULL DEFAULT 0,
    status        TEXT    NOT NULL CHECK (status IN ('pending', 'uploaded')),
    object_key    TEXT    NOT NULL,
    uploaded_by   TEXT    NOT NULL DEFAULT '',
    created_at    TEXT    NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS documents_assessment_idx ON documents (assessment_id, created_at);
CREATE INDEX IF NOT EXISTS documents_account_idx ON documents (account_id);

CREATE TABLE IF NOT EXISTS subscribers (
    id           TEXT NOT NULL PRIMARY KEY,
    account_id   TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    list_id      TEXT NOT NULL REFERENCES lists (id) ON DELETE CASCADE,
    email        TEXT NOT NULL,
    status       TEXT NOT NULL CHECK (status IN ('pending', 'confirmed')),
    created_at   TEXT NOT NULL,
    confirmed_at TEXT
) STRICT;
CREATE UNIQUE INDEX IF NOT EXISTS subscribers_list_email_key ON subscribers (list_id, email);
CREATE INDEX IF NOT EXISTS subscribers_confirmed_idx ON subscribers (list_id) WHERE status = 'confirmed';
CREATE INDEX IF NOT EXISTS subscribers_account_idx ON subscribers (account_id);

CREATE TABLE IF NOT EXISTS incidents (
    id                        TEXT    NOT NULL PRIMARY KEY,
    vendor_id                 TEXT    NOT NULL REFERENCES vendors (id) ON DELETE CASCADE,
    title                     TEXT    NOT NULL,
    summary                   TEXT    NOT NULL DEFAULT '',
    incident_type             TEXT    NOT NULL DEFAULT '',
    affected_service          TEXT    NOT NULL DEFAULT '',
    potentially_impacted_data TEXT,
    status                    TEXT    NOT NULL DEFAULT '',
    severity                  TEXT    NOT NULL DEFAULT '',
    url                       TEXT    NOT NULL DEFAULT '',
    source                    TEXT    NOT NULL,
    external_id               TEXT    NOT NULL,
    published_at              TEXT    NOT NULL,
    backfilled                INTEGER NOT NULL DEFAULT 0,
    created_at                TEXT    NOT NULL
) STRICT;
CREATE UNIQUE INDEX IF NOT EXISTS incidents_source_key ON incidents (vendor_id, source, external_id);
CREATE INDEX IF NOT EXISTS incidents_vendor_published_idx ON incidents (vendor_id, published_at DESC);

CREATE TABLE IF NOT EXISTS deliveries (
    key        TEXT NOT NULL PRIMARY KEY,
    claimed_at TEXT NOT NULL
) STRICT;

CREATE TABLE IF NOT EXISTS runs (
    id         TEXT NOT NULL PRIMARY KEY,
    kind       TEXT NOT NULL,
    sections   TEXT,
    created_by TEXT NOT NULL DEFAULT '',
    jobs       TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
) STRICT;

CREATE TABLE IF NOT EXISTS outbox (
    id           TEXT    NOT NULL PRIMARY KEY,
    kind         TEXT    NOT NULL,
    payload      TEXT    NOT NULL,
    created_at   TEXT    NOT NULL,
    attempts     INTEGER NOT NULL DEFAULT 0,
    last_error   TEXT    NOT NULL DEFAULT '',
    available_at TEXT    NOT NULL,
    delivered_at TEXT
) STRICT;
CREATE INDEX IF NOT EXISTS outbox_pending_idx ON outbox (available_at, id) WHERE delivered_at IS NULL;
