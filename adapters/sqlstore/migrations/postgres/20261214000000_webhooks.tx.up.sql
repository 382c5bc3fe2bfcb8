-- Outbound webhooks (issue 23 part 3): the endpoints an account registers,
-- each event's delivery to one endpoint (its id is the webhook-id every
-- attempt carries, so the primary key is what delivers an event to an
-- endpoint once however often the fan-out runs), and the attempts of each.
CREATE TABLE IF NOT EXISTS webhook_endpoints (
    id          uuid        NOT NULL PRIMARY KEY,
    account_id  uuid        NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    url         text        NOT NULL,
    description text        NOT NULL DEFAULT '',
    events      jsonb       NOT NULL,
    secret      text        NOT NULL,
    created_at  timestamptz NOT NULL,
    created_by  text        NOT NULL DEFAULT '',
    disabled_at timestamptz
);
CREATE INDEX IF NOT EXISTS webhook_endpoints_account_idx ON webhook_endpoints (account_id, created_at);

CREATE TABLE IF NOT EXISTS webhook_deliveries (
    id          uuid        NOT NULL PRIMARY KEY,
    endpoint_id uuid        NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    account_id  uuid        NOT NULL,
    event       jsonb       NOT NULL,
    created_at  timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id);

CREATE TABLE IF NOT EXISTS webhook_attempts (
    delivery_id   uuid        NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    number        integer     NOT NULL,
    endpoint_id   uuid        NOT NULL,
    event_type    text        NOT NULL,
    event_id      uuid        NOT NULL,
    at            timestamptz NOT NULL,
    status_code   integer     NOT NULL DEFAULT 0,
    duration_ns   bigint      NOT NULL DEFAULT 0,
    error         text        NOT NULL DEFAULT '',
    next_retry_at timestamptz,
    PRIMARY KEY (delivery_id, number)
);
CREATE INDEX IF NOT EXISTS webhook_attempts_endpoint_idx ON webhook_attempts (endpoint_id, at DESC);
