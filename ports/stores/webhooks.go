package stores

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/platform/domainevent"
	"github.com/vetted-dev/vetted/core/webhook"
)

// WebhookRepo stores outbound webhook endpoints, their deliveries and the
// attempts of each (issue 23 part 3).
type WebhookRepo interface {
	// Create inserts an endpoint.
	Create(ctx context.Context, e webhook.Endpoint) error
	// Get returns an endpoint of the account, or core.ErrNotFound (also
	// when it belongs to another account).
	Get(ctx context.Context, accountID, id uuid.UUID) (webhook.Endpoint, error)
	// List returns the account's endpoints, oldest first.
	List(ctx context.Context, accountID uuid.UUID) ([]webhook.Endpoint, error)
	// ForVendor returns the endpoints, disabled ones included, of every
	// account that has the vendor on one of its lists, oldest first.
	ForVendor(ctx context.Context, vendorID uuid.UUID) ([]webhook.Endpoint, error)
	// Delete removes an endpoint with its deliveries and attempts;
	// core.ErrNotFound if absent.
	Delete(ctx context.Context, accountID, id uuid.UUID) error
	// Disable marks an endpoint disabled at now; a disabled one keeps its
	// first time. core.ErrNotFound if absent.
	Disable(ctx context.Context, id uuid.UUID, now time.Time) error
	// AddDeliveries inserts the deliveries whose ids are new and returns
	// those (in input order); of concurrent units of work adding one id,
	// exactly one returns it.
	AddDeliveries(ctx context.Context, ds []webhook.Delivery) ([]webhook.Delivery, error)
	// Delivery returns a delivery, or core.ErrNotFound.
	Delivery(ctx context.Context, id uuid.UUID) (webhook.Delivery, error)
	// AddAttempt records an attempt; core.ErrConflict if the delivery has
	// an attempt of that number already (a job that ran twice),
	// core.ErrNotFound if the delivery does not exist.
	AddAttempt(ctx context.Context, a webhook.Attempt) error
	// Attempts returns a page of an endpoint's attempts, newest first (by
	// time, then delivery, then number, descending), and their total.
	Attempts(ctx context.Context, endpointID uuid.UUID, offset, limit int) ([]webhook.Attempt, int, error)
}

// WebhookSender is the transport of outbound webhooks; adapters/webhook
// implements it (Standard Webhooks signing, the scanner's address rules).
type WebhookSender interface {
	// Send makes one attempt to deliver an event to an endpoint, signed
	// with its secret under messageID (the webhook-id header, the same on
	// every attempt of a delivery).
	Send(ctx context.Context, e webhook.Endpoint, messageID string, ev domainevent.Event) webhook.Outcome
	// NextRetry says when attempt number attempt (from 1), which failed at
	// now, is tried again, for a delivery first tried at firstAt; false
	// once the retry window is over.
	NextRetry(attempt int, firstAt, now time.Time) (time.Time, bool)
	// NewSecret makes the signing secret of a new endpoint.
	NewSecret() (string, error)
	// CheckURL vets a URL when an endpoint is registered, under the
	// sender's own address rules; a refused URL is core.ErrInvalid on the
	// field "url".
	CheckURL(raw string) error
}
