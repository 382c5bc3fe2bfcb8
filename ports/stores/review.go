package stores

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/review"
)

// ReviewPolicyRepo stores each account's review policy (issue 22). An
// account that never saved one has none: the core then uses
// review.DefaultPolicy. A policy goes with its account.
type ReviewPolicyRepo interface {
	// Get returns the account's policy, or core.ErrNotFound.
	Get(ctx context.Context, accountID uuid.UUID) (review.Policy, error)
	// Put stores the account's policy, replacing the one it had.
	Put(ctx context.Context, accountID uuid.UUID, p review.Policy) error
}

// CalendarKey is the secret behind a member's personal review calendar
// link: the link carries it signed, and deleting it revokes the link.
type CalendarKey struct {
	ID        uuid.UUID
	AccountID uuid.UUID
	UserID    uuid.UUID
	CreatedAt time.Time
}

// CalendarKeyRepo stores calendar keys, at most one per account and user.
// A key goes with its account and its user.
type CalendarKeyRepo interface {
	// Get returns the key of a member of an account, or core.ErrNotFound.
	Get(ctx context.Context, accountID, userID uuid.UUID) (CalendarKey, error)
	// GetByID returns a key by its id, or core.ErrNotFound.
	GetByID(ctx context.Context, id uuid.UUID) (CalendarKey, error)
	// Create stores a key; core.ErrConflict if the member has one.
	Create(ctx context.Context, k CalendarKey) error
	// Delete removes the key of a member; core.ErrNotFound if none.
	Delete(ctx context.Context, accountID, userID uuid.UUID) error
}
