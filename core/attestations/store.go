package attestations

import (
	"context"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/vendors"
)

// Tx is what the attestations area reads and writes in one unit of work:
// its records, the accounts it checks, the directory vendors it names and
// the outbox (which deletes a file the blob store did not delete at once).
type Tx interface {
	Attestations() AttestationRepo
	accounts.Tx
	vendors.Tx
	outbox.Tx
}

// AttestationRepo stores attestation records.
type AttestationRepo interface {
	// Create inserts a record; core.ErrConflict if its id exists.
	Create(ctx context.Context, a Attestation) error
	// Get returns a record of the account (uuid.Nil: of the directory), or
	// core.ErrNotFound (also when it belongs to another account or to the
	// directory).
	Get(ctx context.Context, accountID, id uuid.UUID) (Attestation, error)
	// ForVendor returns the account's records on a vendor and the
	// directory's (accountID uuid.Nil: the directory's only), oldest first
	// (created_at, then id).
	ForVendor(ctx context.Context, accountID, vendorID uuid.UUID) ([]Attestation, error)
	// Delete removes a record of the account (uuid.Nil: of the directory);
	// core.ErrNotFound if absent.
	Delete(ctx context.Context, accountID, id uuid.UUID) error
	// ListByAccount returns every record of an account, oldest first.
	ListByAccount(ctx context.Context, accountID uuid.UUID) ([]Attestation, error)
	// OnAccountLists reports whether the vendor is on one of the account's
	// lists.
	OnAccountLists(ctx context.Context, accountID, vendorID uuid.UUID) (bool, error)
}
