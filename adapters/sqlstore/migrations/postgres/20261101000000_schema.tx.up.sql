-- Vetted schema, version 1. Forward-only and idempotent: every statement may
-- run again on a database that already has it. Invariants live in the schema
-- too (unique names, one profile per vendor, cascades), not only in Go.

CREATE TABLE IF NOT EXISTS users (
    id             uuid        PRIMARY KEY,
    subject        text        NOT NULL DEFAULT '',
    email          text        NOT NULL,
    name           text        NOT NULL DEFAULT '',
    email_verified boolean     NOT NULL DEFAULT false,
    created_at     timestamptz NOT NULL,
    CONSTRAINT users_email_lower CHECK (email = lower(email))
);
CREATE UNIQUE INDEX IF NOT EXISTS users_email_key ON users (email);
-- Users added by e-mail have no subject until they sign in.
CREATE UNIQUE INDEX IF NOT EXISTS users_subject_key ON users (subject) WHERE subject <> '';

CREATE TABLE IF NOT EXISTS accounts (
    id         uuid        PRIMARY KEY,
    name       text        NOT NULL,
    active     boolean     NOT NULL DEFAULT true,
    personal   boolean     NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL
);
-- Organization names are unique case-insensitively; every personal space is
-- called "individual", so personal accounts are left out.
CREATE UNIQUE INDEX IF NOT EXISTS accounts_org_name_key ON accounts (lower(name)) WHERE NOT personal;

CREATE TABLE IF NOT EXISTS members (
    account_id uuid        NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    user_id    uuid        NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role       text        NOT NULL CHECK (role IN ('viewer', 'member', 'admin', 'owner')),
    created_at timestamptz NOT NULL,
    PRIMARY KEY (account_id, user_id)
);
CREATE INDEX IF NOT EXISTS members_user_idx ON members (user_id);

CREATE TABLE IF NOT EXISTS vendors (
    id          uuid        PRIMARY KEY,
    name        text        NOT NULL,
    website_url text        NOT NULL DEFAULT '',
    domain      text        NOT NULL DEFAULT '',
    aliases     jsonb,
    created_at  timestamptz NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS vendors_name_key ON vendors (lower(name));
CREATE INDEX IF NOT EXISTS vendors_domain_idx ON vendors (domain) WHERE domain <> '';

CREATE TABLE IF NOT EXISTS profiles (
    id          uuid        PRIMARY KEY,
    vendor_id   uuid        NOT NULL UNIQUE REFERENCES vendors (id) ON DELETE CASCADE,
    company     jsonb       NOT NULL DEFAULT '{}',
    security    jsonb       NOT NULL DEFAULT '{}',
    privacy     jsonb       NOT NULL DEFAULT '{}',
    maturity    jsonb       NOT NULL DEFAULT '{}',
    scores      jsonb       NOT NULL DEFAULT '{}',
    enrichment  jsonb       NOT NULL DEFAULT '{}',
    latest_grc  jsonb,
    created_at  timestamptz NOT NULL,
    updated_at  timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS profiles_updated_idx ON profiles (updated_at);

CREATE TABLE IF NOT EXISTS security_instances (
    id          uuid        PRIMARY KEY,
    vendor_id   uuid        NOT NULL REFERENCES vendors (id) ON DELETE CASCADE,
    kind        text        NOT NULL,
    category    text        NOT NULL,
    code        text        NOT NULL,
    title       text        NOT NULL,
    severity    text        NOT NULL,
    evidence    text        NOT NULL DEFAULT '',
    source      text        NOT NULL DEFAULT '',
    observed_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS security_instances_vendor_idx ON security_instances (vendor_id);

CREATE TABLE IF NOT EXISTS lists (
    id         uuid        PRIMARY KEY,
    account_id uuid        NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    name       text        NOT NULL,
    created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS lists_account_name_key ON lists (account_id, lower(name));

-- Deleting a profile keeps entries: they reference the directory entry.
CREATE TABLE IF NOT EXISTS list_entries (
    list_id        uuid        NOT NULL REFERENCES lists (id) ON DELETE CASCADE,
    vendor_id      uuid        NOT NULL REFERENCES vendors (id) ON DELETE CASCADE,
    alerts_enabled boolean     NOT NULL DEFAULT true,
    added_at       timestamptz NOT NULL,
    PRIMARY KEY (list_id, vendor_id)
);
CREATE INDEX IF NOT EXISTS list_entries_vendor_idx ON list_entries (vendor_id) WHERE alerts_enabled;

-- A product belongs to an entry: taking the vendor off the list removes its
-- products, and a product for a vendor not on the list is refused.
CREATE TABLE IF NOT EXISTS products (
    id         uuid        PRIMARY KEY,
    list_id    uuid        NOT NULL,
    vendor_id  uuid        NOT NULL,
    name       text        NOT NULL,
    created_at timestamptz NOT NULL,
    FOREIGN KEY (list_id, vendor_id) REFERENCES list_entries (list_id, vendor_id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX IF NOT EXISTS products_entry_name_key ON products (list_id, vendor_id, lower(name));

CREATE TABLE IF NOT EXISTS quota_claims (
    account_id uuid        NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    vendor_id  uuid        NOT NULL REFERENCES vendors (id) ON DELETE CASCADE,
    claimed_at timestamptz NOT NULL,
    PRIMARY KEY (account_id, vendor_id)
);

CREATE TABLE IF NOT EXISTS assessments (
    id                             uuid        PRIMARY KEY,
    account_id                     uuid        NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    list_id                        uuid        NOT NULL REFERENCES lists (id) ON DELETE CASCADE,
    vendor_id                      uuid        NOT NULL REFERENCES vendors (id) ON DELETE CASCADE,
    -- Deleting a profile keeps the assessment; it just loses the link.
    vendor_profile_id              uuid        REFERENCES profiles (id) ON DELETE SET NULL,
    vendor_name                    text        NOT NULL DEFAULT '',
    status                         text        NOT NULL,
    conditional_approval_condition text        NOT NULL DEFAULT '',
    sponsor_business_department    text        NOT NULL DEFAULT '',
    sponsor_contact                text        NOT NULL DEFAULT '',
    use_case                       text        NOT NULL DEFAULT '',
    data_collected                 jsonb,
    compliance_comment             text        NOT NULL DEFAULT '',
    created_at                     timestamptz NOT NULL,
    created_by                     text        NOT NULL DEFAULT '',
    updated_at                     timestamptz NOT NULL,
    updated_by                     text        NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX IF NOT EXISTS assessments_list_vendor_key ON assessments (list_id, vendor_id);
CREATE INDEX IF NOT EXISTS assessments_account_updated_idx ON assessments (account_id, updated_at DESC);
CREATE INDEX IF NOT EXISTS assessments_vendor_idx ON assessments (vendor_id);
CREATE INDEX IF NOT EXISTS assessments_profile_idx ON assessments (vendor_profile_id) WHERE vendor_profile_id IS NOT NULL;

CREATE TABLE IF NOT EXISTS audit_events (
    id            uuid        PRIMARY KEY,
    assessment_id uuid        NOT NULL REFERENCES assessments (id) ON DELETE CASCADE,
    account_id    uuid        NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created_at    timestamptz NOT NULL,
    submitted_by  text        NOT NULL DEFAULT '',
    changes       jsonb       NOT NULL DEFAULT '[]'
);
CREATE INDEX IF NOT EXISTS audit_events_assessment_idx ON audit_events (assessment_id, created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS audit_events_account_idx ON audit_events (account_id);

CREATE TABLE IF NOT EXISTS documents (
    id            uuid        PRIMARY KEY,
    account_id    uuid        NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    assessment_id uuid        NOT NULL REFERENCES assessments (id) ON DELETE CASCADE,
    file_name     text        NOT NULL,
    content_type  text        NOT NULL,
    size_bytes    bigint      NOT NULL DEFAULT 0,
    status        text        NOT NULL CHECK (status IN ('pending', 'uploaded')),
    object_key    text        NOT NULL,
    uploaded_by   text        NOT NULL DEFAULT '',
    created_at    timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS documents_assessment_idx ON documents (assessment_id, created_at);
CREATE INDEX IF NOT EXISTS documents_account_idx ON documents (account_id);

CREATE TABLE IF NOT EXISTS subscribers (
    id           uuid        PRIMARY KEY,
    account_id   uuid        NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    list_id      uuid        NOT NULL REFERENCES lists (id) ON DELETE CASCADE,
    email        text        NOT NULL,
    status       text        NOT NULL CHECK (status IN ('pending', 'confirmed')),
    created_at   timestamptz NOT NULL,
    confirmed_at timestamptz
);
CREATE UNIQUE INDEX IF NOT EXISTS subscribers_list_email_key ON subscribers (list_id, lower(email));
CREATE INDEX IF NOT EXISTS subscribers_confirmed_idx ON subscribers (list_id) WHERE status = 'confirmed';
CREATE INDEX IF NOT EXISTS subscribers_account_idx ON subscribers (account_id);

CREATE TABLE IF NOT EXISTS incidents (
    id                        uuid        PRIMARY KEY,
    vendor_id                 uuid        NOT NULL REFERENCES vendors (id) ON DELETE CASCADE,
    title                     text        NOT NULL,
    summary                   text        NOT NULL DEFAULT '',
    incident_type             text        NOT NULL DEFAULT '',
    affected_service          text        NOT NULL DEFAULT '',
    potentially_impacted_data jsonb,
    status                    text        NOT NULL DEFAULT '',
    severity                  text        NOT NULL DEFAULT '',
    url                       text        NOT NULL DEFAULT '',
    source                    text        NOT NULL,
    external_id               text        NOT NULL,
    published_at              timestamptz NOT NULL,
    backfilled                boolean     NOT NULL DEFAULT false,
    created_at                timestamptz NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS incidents_source_key ON incidents (vendor_id, source, external_id);
CREATE INDEX IF NOT EXISTS incidents_vendor_published_idx ON incidents (vendor_id, published_at DESC);

CREATE TABLE IF NOT EXISTS deliveries (
    key        text        PRIMARY KEY,
    claimed_at timestamptz NOT NULL
);

CREATE TABLE IF NOT EXISTS runs (
    id         uuid        PRIMARY KEY,
    kind       text        NOT NULL,
    sections   jsonb,
    created_by text        NOT NULL DEFAULT '',
    jobs       jsonb,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
);

-- ids are UUIDv7, so ordering by id is ordering by creation time.
CREATE TABLE IF NOT EXISTS outbox (
    id           uuid        PRIMARY KEY,
    kind         text        NOT NULL,
    payload      jsonb       NOT NULL,
    created_at   timestamptz NOT NULL,
    attempts     integer     NOT NULL DEFAULT 0,
    last_error   text        NOT NULL DEFAULT '',
    available_at timestamptz NOT NULL,
    delivered_at timestamptz
);
CREATE INDEX IF NOT EXISTS outbox_pending_idx ON outbox (available_at, id) WHERE delivered_at IS NULL;
