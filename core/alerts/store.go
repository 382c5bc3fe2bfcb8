package alerts

import (
	"context"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/platform/mailonce"
	"github.com/vetted-dev/vetted/core/platform/outbox"
)

// Tx is what the alerts area reads and writes in one unit of work: the
// subscribers of lists; the lists it sits above, with the accounts and the
// directory (incidents, profiles) they reach; the outbox and the mail
// delivery keys.
type Tx interface {
	Subscribers() SubscriberRepo
	lists.Tx
	outbox.Tx
	mailonce.Tx
}

// SubscriberRepo stores subscribers, unique per (list, e-mail).
type SubscriberRepo interface {
	// List returns a list's subscribers by e-mail; IsMember is filled in by
	// the service, not the store.
	List(ctx context.Context, listID uuid.UUID) ([]Subscriber, error)
	// Get returns a subscriber by id, or core.ErrNotFound.
	Get(ctx context.Context, id uuid.UUID) (Subscriber, error)
	// GetByEmail returns the subscriber of a list with that e-mail, or core.ErrNotFound.
	GetByEmail(ctx context.Context, listID uuid.UUID, email string) (Subscriber, error)
	// Save inserts or updates a subscriber by id; core.ErrConflict if another
	// subscriber of the list has the e-mail.
	Save(ctx context.Context, s Subscriber) error
	// Delete removes subscribers of a list by e-mail and returns how many.
	Delete(ctx context.Context, listID uuid.UUID, emails []string) (int, error)
	// Recipients returns the confirmed subscribers of every list that carries
	// the vendor with alerts enabled, with the list name.
	Recipients(ctx context.Context, vendorID uuid.UUID) ([]Recipient, error)
}
