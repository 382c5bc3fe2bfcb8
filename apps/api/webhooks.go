package api

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/platform/domainevent"
	"github.com/vetted-dev/vetted/core/webhooks"
)

// WebhookJSON is an outbound webhook endpoint of an account, without its
// secret: the secret is shown once, in the answer that creates it.
type WebhookJSON struct {
	ID          string     `json:"id" format:"uuid"`
	URL         string     `json:"url"`
	Description string     `json:"description"`
	Events      []string   `json:"events" doc:"The event types the endpoint gets"`
	Status      string     `json:"status" enum:"active,disabled" doc:"disabled once deliveries failed for 24 hours; a disabled endpoint gets no new events"`
	CreatedAt   time.Time  `json:"created_at"`
	CreatedBy   string     `json:"created_by"`
	DisabledAt  *time.Time `json:"disabled_at" doc:"null while active"`
}

func webhookJSON(e webhooks.Endpoint) WebhookJSON {
	events := make([]string, len(e.Events))
	for i, t := range e.Events {
		events[i] = string(t)
	}
	status := "active"
	if e.DisabledAt != nil {
		status = "disabled"
	}
	return WebhookJSON{ID: e.ID.String(), URL: e.URL, Description: e.Description, Events: events, Status: status,
		CreatedAt: e.CreatedAt, CreatedBy: e.CreatedBy, DisabledAt: e.DisabledAt}
}

// WebhookCreatedJSON is a new endpoint with its signing secret.
type WebhookCreatedJSON struct {
	WebhookJSON
	Secret string `json:"secret" doc:"The Standard Webhooks signing secret (whsec_...). Shown in this answer only: keep it now, it cannot be read again."`
}

// WebhookAttemptJSON is one attempt of one delivery.
type WebhookAttemptJSON struct {
	DeliveryID  string     `json:"delivery_id" format:"uuid"`
	MessageID   string     `json:"message_id" doc:"The webhook-id header the receiver got: the same on every attempt of a delivery"`
	EventType   string     `json:"event_type"`
	EventID     string     `json:"event_id" format:"uuid"`
	Attempt     int        `json:"attempt" minimum:"1" doc:"1 for the first attempt of the delivery"`
	AttemptedAt time.Time  `json:"attempted_at"`
	OK          bool       `json:"ok" doc:"The receiver answered 2xx"`
	StatusCode  int        `json:"status_code" doc:"0 when no answer came"`
	DurationMS  float64    `json:"duration_ms"`
	Error       string     `json:"error" doc:"Why the attempt failed; empty when it succeeded"`
	NextRetryAt *time.Time `json:"next_retry_at" doc:"When the next attempt is due; null when this one succeeded or was the last"`
}

func webhookAttemptJSON(a webhooks.Attempt) WebhookAttemptJSON {
	var next *time.Time
	if !a.NextRetryAt.IsZero() {
		n := a.NextRetryAt
		next = &n
	}
	return WebhookAttemptJSON{DeliveryID: a.DeliveryID.String(), MessageID: webhooks.MessageID(a.DeliveryID), EventType: string(a.EventType),
		EventID: a.EventID.String(), Attempt: a.Number, AttemptedAt: a.At, OK: a.OK(), StatusCode: a.StatusCode,
		DurationMS: float64(a.Duration.Microseconds()) / 1000, Error: a.Error, NextRetryAt: next}
}

// WebhookParam names an endpoint.
type WebhookParam struct {
	WebhookID string `query:"webhook-id" required:"true" doc:"The endpoint's id" format:"uuid"`
}

func (p WebhookParam) webhookID() (uuid.UUID, error) {
	return accounts.ParseID("webhook-id", p.WebhookID)
}

type webhooksListIn struct {
	AccountParam
}

type webhooksListOut struct {
	Body struct {
		Webhooks []WebhookJSON `json:"webhooks"`
	}
}

type webhooksCreateIn struct {
	AccountParam
	Body struct {
		URL         string   `json:"url" maxLength:"2048" doc:"https URL the events are posted to (public address, port 443 or 80)"`
		Events      []string `json:"events" minItems:"1" enum:"incident.created,vendor.rating_changed,assessment.status_changed,review.due_soon,review.overdue,list.vendors_changed" doc:"The event types to send"`
		Description string   `json:"description,omitempty" maxLength:"200"`
	}
}

type webhooksCreateOut struct {
	Body WebhookCreatedJSON
}

type webhooksDeleteIn struct {
	AccountParam
	WebhookParam
}

type webhooksDeliveriesIn struct {
	AccountParam
	WebhookParam
	Offset int `query:"offset" minimum:"0" doc:"Attempts to skip"`
	Limit  int `query:"limit" minimum:"0" maximum:"200" doc:"Attempts per page (0: 50)"`
}

type webhooksDeliveriesOut struct {
	Body struct {
		WebhookID  string               `json:"webhook_id" format:"uuid"`
		Total      int                  `json:"total"`
		Offset     int                  `json:"offset"`
		Limit      int                  `json:"limit"`
		Deliveries []WebhookAttemptJSON `json:"deliveries" doc:"Attempts, newest first"`
	}
}

type webhooksTestOut struct {
	Body struct {
		DeliveryID string `json:"delivery_id" format:"uuid"`
		MessageID  string `json:"message_id" doc:"The webhook-id header of the ping"`
		EventType  string `json:"event_type"`
	}
}

// webhookSigning describes, on create-webhook, how events are posted.
const webhookSigning = "Events are posted as Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature: HMAC-SHA256 with the endpoint's secret) " +
	"with the body {\"type\", \"timestamp\", \"data\"}. A delivery is retried with the same webhook-id for 24 hours " +
	"(5 s, 5 min, 30 min, 2 h, 5 h, 10 h); then the endpoint is disabled and the account's admins and owners are mailed. " +
	"Redirects are not followed. The URL must be https to a public address on port 443 or 80, the rules the scanner follows."

// webhooksHandler answers the Webhooks operations with the webhooks area
// of the core.
type webhooksHandler struct{ *Server }

// listWebhooks answers list-webhooks.
func (h webhooksHandler) listWebhooks(ctx context.Context, in *webhooksListIn) (*webhooksListOut, error) {
	acc, err := in.accountRef()
	if err != nil {
		return nil, err
	}
	es, err := h.webhooks.List(ctx, actor(ctx), acc)
	if err != nil {
		return nil, err
	}
	out := &webhooksListOut{}
	out.Body.Webhooks = make([]WebhookJSON, 0, len(es))
	for _, e := range es {
		out.Body.Webhooks = append(out.Body.Webhooks, webhookJSON(e))
	}
	return out, nil
}

// createWebhook answers create-webhook.
func (h webhooksHandler) createWebhook(ctx context.Context, in *webhooksCreateIn) (*webhooksCreateOut, error) {
	acc, err := in.accountRef()
	if err != nil {
		return nil, err
	}
	e, err := h.webhooks.Create(ctx, actor(ctx), acc, webhooks.CreateInput{URL: in.Body.URL, Events: in.Body.Events, Description: in.Body.Description})
	if err != nil {
		return nil, err
	}
	return &webhooksCreateOut{Body: WebhookCreatedJSON{WebhookJSON: webhookJSON(e), Secret: e.Secret}}, nil
}

// deleteWebhook answers delete-webhook.
func (h webhooksHandler) deleteWebhook(ctx context.Context, in *webhooksDeleteIn) (*struct{}, error) {
	acc, id, err := accountAnd(in.AccountParam, in.webhookID)
	if err != nil {
		return nil, err
	}
	return nil, h.webhooks.Delete(ctx, actor(ctx), acc, id)
}

// deliveries answers list-webhook-deliveries.
func (h webhooksHandler) deliveries(ctx context.Context, in *webhooksDeliveriesIn) (*webhooksDeliveriesOut, error) {
	acc, id, err := accountAnd(in.AccountParam, in.webhookID)
	if err != nil {
		return nil, err
	}
	p, err := h.webhooks.Deliveries(ctx, actor(ctx), acc, id, in.Offset, in.Limit)
	if err != nil {
		return nil, err
	}
	out := &webhooksDeliveriesOut{}
	out.Body.WebhookID, out.Body.Total, out.Body.Offset, out.Body.Limit = id.String(), p.Total, p.Offset, p.Limit
	out.Body.Deliveries = make([]WebhookAttemptJSON, 0, len(p.Attempts))
	for _, a := range p.Attempts {
		out.Body.Deliveries = append(out.Body.Deliveries, webhookAttemptJSON(a))
	}
	return out, nil
}

// testWebhook answers test-webhook.
func (h webhooksHandler) testWebhook(ctx context.Context, in *webhooksDeleteIn) (*webhooksTestOut, error) {
	acc, id, err := accountAnd(in.AccountParam, in.webhookID)
	if err != nil {
		return nil, err
	}
	d, err := h.webhooks.Test(ctx, actor(ctx), acc, id)
	if err != nil {
		return nil, err
	}
	out := &webhooksTestOut{}
	out.Body.DeliveryID, out.Body.MessageID, out.Body.EventType = d.ID.String(), webhooks.MessageID(d.ID), string(domainevent.Ping)
	return out, nil
}
