package webhooks

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/platform/domainevent"
	"github.com/vetted-dev/vetted/core/platform/mailonce"
	"github.com/vetted-dev/vetted/core/platform/outbox"
)

// Tx is what the webhooks area reads and writes in one unit of work: its
// endpoints, deliveries and attempts, the accounts and members it checks
// and mails, the outbox and the mail delivery keys.
type Tx interface {
	Webhooks() WebhookRepo
	accounts.Tx
	outbox.Tx
	mailonce.Tx
}

// WebhookRepo stores outbound webhook endpoints, their deliveries and the
// attempts of each.
type WebhookRepo interface {
	// Create inserts an endpoint.
	Create(ctx context.Context, e Endpoint) error
	// Get returns an endpoint of the account, or core.ErrNotFound (also
	// when it belongs to another account).
	Get(ctx context.Context, accountID, id uuid.UUID) (Endpoint, error)
	// List returns the account's endpoints, oldest first.
	List(ctx context.Context, accountID uuid.UUID) ([]Endpoint, error)
	// ForVendor returns the endpoints, disabled ones included, of every
	// account that has the vendor on one of its lists, oldest first.
	ForVendor(ctx context.Context, vendorID uuid.UUID) ([]Endpoint, error)
	// Delete removes an endpoint with its deliveries and attempts;
	// core.ErrNotFound if absent.
	Delete(ctx context.Context, accountID, id uuid.UUID) error
	// Disable marks an endpoint disabled at now; a disabled one keeps its
	// first time. core.ErrNotFound if absent.
	Disable(ctx context.Context, id uuid.UUID, now time.Time) error
	// AddDeliveries inserts the deliveries whose ids are new and returns
	// those (in input order); of concurrent units of work adding one id,
	// exactly one returns it.
	AddDeliveries(ctx context.Context, ds []Delivery) ([]Delivery, error)
	// Delivery returns a delivery, or core.ErrNotFound.
	Delivery(ctx context.Context, id uuid.UUID) (Delivery, error)
	// AddAttempt records an attempt; core.ErrConflict if the delivery has
	// an attempt of that number already (a job that ran twice),
	// core.ErrNotFound if the delivery does not exist.
	AddAttempt(ctx context.Context, a Attempt) error
	// Attempts returns a page of an endpoint's attempts, newest first (by
	// time, then delivery, then number, descending), and their total.
	Attempts(ctx context.Context, endpointID uuid.UUID, offset, limit int) ([]Attempt, int, error)
}

// WebhookSender is the transport of outbound webhooks; adapters/webhook
// implements it (Standard Webhooks signing, the scanner's address rules).
type WebhookSender interface {
	// Send makes one attempt to deliver an event to an endpoint, signed
	// with its secret under messageID (the webhook-id header, the same on
	// every attempt of a delivery).
	Send(ctx context.Context, e Endpoint, messageID string, ev domainevent.Event) Outcome
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
