package sqlstore

import (
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/vetted-dev/vetted/core/platform/domainevent"
	"github.com/vetted-dev/vetted/core/webhooks"
	"github.com/vetted-dev/vetted/internal/outboxjson"
)

// webhookEndpointRow is a row of webhook_endpoints.
type webhookEndpointRow struct {
	bun.BaseModel `bun:"table:webhook_endpoints,alias:we"`

	ID          uuid.UUID  `bun:"id,pk"`
	AccountID   uuid.UUID  `bun:"account_id"`
	URL         string     `bun:"url"`
	Description string     `bun:"description"`
	Events      []string   `bun:"events,type:jsonb"`
	Secret      string     `bun:"secret"`
	CreatedAt   time.Time  `bun:"created_at"`
	CreatedBy   string     `bun:"created_by"`
	DisabledAt  *time.Time `bun:"disabled_at"`
}

// fromEndpoint makes the row of e.
func fromEndpoint(e webhooks.Endpoint) webhookEndpointRow {
	events := make([]string, len(e.Events))
	for i, t := range e.Events {
		events[i] = string(t)
	}
	return webhookEndpointRow{ID: e.ID, AccountID: e.AccountID, URL: e.URL, Description: e.Description, Events: events,
		Secret: e.Secret, CreatedAt: e.CreatedAt.UTC(), CreatedBy: e.CreatedBy, DisabledAt: utcPtr(e.DisabledAt)}
}

// Core rebuilds the endpoint.
func (r webhookEndpointRow) Core() webhooks.Endpoint {
	events := make([]domainevent.EventType, len(r.Events))
	for i, t := range r.Events {
		events[i] = domainevent.EventType(t)
	}
	return webhooks.Endpoint{ID: r.ID, AccountID: r.AccountID, URL: r.URL, Description: r.Description, Events: events,
		Secret: r.Secret, CreatedAt: utc(r.CreatedAt), CreatedBy: r.CreatedBy, DisabledAt: utcPtr(r.DisabledAt)}
}

// webhookDeliveryRow is a row of webhook_deliveries; the event is kept in
// outboxjson's stored form, the one the outbox carried it in.
type webhookDeliveryRow struct {
	bun.BaseModel `bun:"table:webhook_deliveries,alias:wd"`

	ID         uuid.UUID        `bun:"id,pk"`
	EndpointID uuid.UUID        `bun:"endpoint_id"`
	AccountID  uuid.UUID        `bun:"account_id"`
	Event      outboxjson.Event `bun:"event,type:jsonb"`
	CreatedAt  time.Time        `bun:"created_at"`
}

// fromWebhookDelivery makes the row of d.
func fromWebhookDelivery(d webhooks.Delivery) webhookDeliveryRow {
	return webhookDeliveryRow{ID: d.ID, EndpointID: d.EndpointID, AccountID: d.AccountID, Event: outboxjson.FromEvent(d.Event), CreatedAt: d.CreatedAt.UTC()}
}

// Core rebuilds the delivery.
func (r webhookDeliveryRow) Core() webhooks.Delivery {
	return webhooks.Delivery{ID: r.ID, EndpointID: r.EndpointID, AccountID: r.AccountID, Event: r.Event.Core(), CreatedAt: utc(r.CreatedAt)}
}

// webhookAttemptRow is a row of webhook_attempts.
type webhookAttemptRow struct {
	bun.BaseModel `bun:"table:webhook_attempts,alias:wa"`

	DeliveryID  uuid.UUID  `bun:"delivery_id,pk"`
	Number      int        `bun:"number,pk"`
	EndpointID  uuid.UUID  `bun:"endpoint_id"`
	EventType   string     `bun:"event_type"`
	EventID     uuid.UUID  `bun:"event_id"`
	At          time.Time  `bun:"at"`
	StatusCode  int        `bun:"status_code"`
	DurationNS  int64      `bun:"duration_ns"`
	Error       string     `bun:"error"`
	NextRetryAt *time.Time `bun:"next_retry_at"`
}

// fromWebhookAttempt makes the row of a.
func fromWebhookAttempt(a webhooks.Attempt) webhookAttemptRow {
	var next *time.Time
	if !a.NextRetryAt.IsZero() {
		at := a.NextRetryAt.UTC()
		next = &at
	}
	return webhookAttemptRow{DeliveryID: a.DeliveryID, Number: a.Number, EndpointID: a.EndpointID, EventType: string(a.EventType),
		EventID: a.EventID, At: a.At.UTC(), StatusCode: a.StatusCode, DurationNS: int64(a.Duration), Error: a.Error, NextRetryAt: next}
}

// Core rebuilds the attempt.
func (r webhookAttemptRow) Core() webhooks.Attempt {
	var next time.Time
	if r.NextRetryAt != nil {
		next = utc(*r.NextRetryAt)
	}
	return webhooks.Attempt{DeliveryID: r.DeliveryID, Number: r.Number, EndpointID: r.EndpointID, EventType: domainevent.EventType(r.EventType),
		EventID: r.EventID, At: utc(r.At), StatusCode: r.StatusCode, Duration: time.Duration(r.DurationNS), Error: r.Error, NextRetryAt: next}
}
