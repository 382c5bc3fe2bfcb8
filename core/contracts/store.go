package contracts

import (
	"context"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/lists"
)

// Tx is what the contracts area reads and writes in one unit of work: its
// contracts, and the accounts, lists and directory it checks them against
// (lists.Tx).
type Tx interface {
	Contracts() ContractRepo
	lists.Tx
}

// ContractRepo stores the contracts of accounts. VendorName is not stored:
// the service fills it from the directory.
type ContractRepo interface {
	// Create inserts a contract; core.ErrConflict if its id exists.
	Create(ctx context.Context, c Contract) error
	// Get returns a contract of the account, or core.ErrNotFound (also when
	// it belongs to another account).
	Get(ctx context.Context, accountID, id uuid.UUID) (Contract, error)
	// List returns the account's contracts, of one vendor when vendorID is
	// not uuid.Nil, by end date, then creation, then id.
	List(ctx context.Context, accountID, vendorID uuid.UUID) ([]Contract, error)
	// Update replaces a contract's terms and UpdatedAt; core.ErrNotFound if
	// the account has no such contract.
	Update(ctx context.Context, c Contract) error
	// Delete removes a contract; core.ErrNotFound if the account has none
	// such.
	Delete(ctx context.Context, accountID, id uuid.UUID) error
}
