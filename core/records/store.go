package records

import (
	"context"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/platform/mailonce"
)

// Tx is what the records area reads and writes in one unit of work: its
// records and notes; the accounts, members and directory vendors it checks
// (through lists.Tx, which carries them with the outbox); the mail
// delivery keys of the mention mails.
type Tx interface {
	Records() RecordRepo
	lists.Tx
	mailonce.Tx
}

// RecordRepo stores vendor records, one per (account, vendor), and their
// notes.
type RecordRepo interface {
	// Get returns the record of a vendor in an account without its notes,
	// or core.ErrNotFound when it was never saved.
	Get(ctx context.Context, accountID, vendorID uuid.UUID) (Record, error)
	// Save inserts or replaces the record of (AccountID, VendorID); its
	// Notes are ignored. core.ErrNotFound when the account or the vendor
	// does not exist.
	Save(ctx context.Context, r Record) error
	// Notes returns the notes of a record, oldest first (created_at, then id).
	Notes(ctx context.Context, accountID, vendorID uuid.UUID) ([]Note, error)
	// AddNote appends a note to a saved record; core.ErrNotFound when the
	// record was never saved, core.ErrConflict when the id exists.
	AddNote(ctx context.Context, n Note) error
	// OnAccount reports whether the vendor is on at least one list of the
	// account.
	OnAccount(ctx context.Context, accountID, vendorID uuid.UUID) (bool, error)
}
