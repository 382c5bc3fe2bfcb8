package ports

import (
	"context"

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

// EntryKey is the position of an entry in a list's order (vendor name, then
// vendor id), the cursor of ListRepo.EntriesAfter.
type EntryKey struct {
	VendorName string
	VendorID   uuid.UUID
}
