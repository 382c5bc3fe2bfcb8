package outbox

import (
	"context"
	"time"

	"github.com/google/uuid"
)

// Repo is the transactional outbox.
type Repo interface {
	// Add appends messages in the caller's unit of work.
	Add(ctx context.Context, ms ...Message) error
	// Claim returns up to limit undelivered messages whose next attempt is
	// due, oldest first, locked so that concurrent relays skip them (FOR
	// UPDATE SKIP LOCKED); the lock holds until the unit of work ends.
	Claim(ctx context.Context, limit int, now time.Time) ([]Message, error)
	// MarkDelivered marks messages handed to the queue.
	MarkDelivered(ctx context.Context, ids []uuid.UUID, now time.Time) error
	// MarkFailed records a failed hand-over and when to try again.
	MarkFailed(ctx context.Context, id uuid.UUID, errText string, retryAt time.Time) error
	// Lease keeps undelivered messages from being claimed before until,
	// counting no attempt: a message handed to a queue that acknowledges a
	// job only once it has run (HeldJobQueue) stays in the outbox, leased,
	// so that it comes back if its process dies. A lease until now
	// releases the message at once. Ids delivered or absent are skipped.
	Lease(ctx context.Context, ids []uuid.UUID, until time.Time) error
	// Pending counts undelivered messages.
	Pending(ctx context.Context) (int, error)
	// Oldest returns when the oldest undelivered message was created, or
	// the zero time when none is pending (the backlog-age metric).
	Oldest(ctx context.Context) (time.Time, error)
}

// Tx is what a unit of work must offer to write to the outbox.
type Tx interface{ Outbox() Repo }
