-- Outbound webhooks (issue 23 part 3), as in the PostgreSQL schema: the
-- endpoints an account registers, each event's delivery to one endpoint
-- (its id is the webhook-id of every attempt; the primary key delivers an
-- event to an endpoint once), and the attempts of each delivery.
CREATE TABLE IF NOT EXISTS webhook_endpoints (
    id          TEXT NOT NULL PRIMARY KEY,
    account_id  TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    url         TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    events      TEXT NOT NULL,
    secret      TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    created_by  TEXT NOT NULL DEFAULT '',
    disabled_at TEXT
) STRICT;
CREATE INDEX IF NOT EXISTS webhook_endpoints_account_idx ON webhook_endpoints (account_id, created_at);

CREATE TABLE IF NOT EXISTS webhook_deliveries (
    id          TEXT NOT NULL PRIMARY KEY,
    endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    account_id  TEXT NOT NULL,
    event       TEXT NOT NULL,
    created_at  TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id);

CREATE TABLE IF NOT EXISTS webhook_attempts (
    delivery_id   TEXT    NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    number        INTEGER NOT NULL,
    endpoint_id   TEXT    NOT NULL,
    event_type    TEXT    NOT NULL,
    event_id      TEXT    NOT NULL,
    at            TEXT    NOT NULL,
    status_code   INTEGER NOT NULL DEFAULT 0,
    duration_ns   INTEGER NOT NULL DEFAULT 0,
    error         TEXT    NOT NULL DEFAULT '',
    next_retry_at TEXT,
    PRIMARY KEY (delivery_id, number)
) STRICT;
CREATE INDEX IF NOT EXISTS webhook_attempts_endpoint_idx ON webhook_attempts (endpoint_id, at DESC);
