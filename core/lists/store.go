package lists

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/vendors"
)

// Tx is what the lists area reads and writes in one unit of work: its
// lists, entries and products, the enrichment quota, the accounts it
// checks (and locks, to count the quota), the directory vendors it adds,
// and the outbox. What a deleted list means to the reviews on it reaches
// the assessments area through Deps.Files.
type Tx interface {
	Lists() ListRepo
	Quota() QuotaRepo
	accounts.Tx
	vendors.Tx
	outbox.Tx
}

// EntryKey is the position of an entry in a list's order (vendor name, then
// vendor id), the cursor of ListRepo.EntriesAfter.
type EntryKey struct {
	VendorName string
	VendorID   uuid.UUID
}

// ListRepo stores vendor lists, their entries and product rows.
type ListRepo interface {
	// Create inserts a list; core.ErrConflict if the account has a list of that name.
	Create(ctx context.Context, l List) error
	// Get returns a list of the account (with VendorCount), or core.ErrNotFound
	// (also when the list belongs to another account).
	Get(ctx context.Context, accountID, id uuid.UUID) (List, error)
	// GetByName returns a list of the account by exact name, or core.ErrNotFound.
	GetByName(ctx context.Context, accountID uuid.UUID, name string) (List, error)
	// ListByAccount returns the account's lists with VendorCount, by name.
	ListByAccount(ctx context.Context, accountID uuid.UUID) ([]List, error)
	// Delete removes a list with its entries, products, assessments and
	// subscribers; core.ErrNotFound if absent.
	Delete(ctx context.Context, accountID, id uuid.UUID) error
	// Entries returns the entries of a list with vendor name, website,
	// is_custom, enrichment status and products, ordered by vendor name.
	Entries(ctx context.Context, listID uuid.UUID) ([]Entry, error)
	// LockList takes a write lock on a list for the rest of the unit of work
	// (SELECT ... FOR UPDATE) and returns its Version as of then, so that a
	// write checked against the version it was made for (If-Match) cannot
	// pass beside a concurrent write of the same list. Stores whose units
	// of work never run side by side only read the version.
	// core.ErrNotFound if the list does not exist.
	LockList(ctx context.Context, listID uuid.UUID) (int64, error)
	// VendorIDs returns the ids of the vendors on a list.
	VendorIDs(ctx context.Context, listID uuid.UUID) ([]uuid.UUID, error)
	// AddEntries puts vendors on a list (alerts enabled, added now); vendors
	// already on it are left as they are. One set-based call.
	//
	// Every write that changes a list's entries or product rows (AddEntries,
	// NameEntries, RemoveEntries, SetAlerts, AddProduct, MergeProducts) adds one to the
	// list's Version in its unit of work when it changed something, so that
	// List.Revision names what a read of the list showed.
	AddEntries(ctx context.Context, listID uuid.UUID, vendorIDs []uuid.UUID, now time.Time) error
	// NameEntries records, for vendors on a list, the name each was added
	// under (vendor id to name) when it is not the directory's ("Acme Corp"
	// for Acme): Entries answers it as the entry's DisplayName. Vendors not
	// on the list are ignored. One set-based call (a few for thousands).
	NameEntries(ctx context.Context, listID uuid.UUID, names map[uuid.UUID]string) error
	// RemoveEntries takes vendors off a list with their products. One call.
	RemoveEntries(ctx context.Context, listID uuid.UUID, vendorIDs []uuid.UUID) error
	// SetAlerts sets alerts_enabled; core.ErrNotFound if the vendor is not on the list.
	SetAlerts(ctx context.Context, listID, vendorID uuid.UUID, enabled bool) error
	// AddProduct inserts one product row; core.ErrConflict if the vendor
	// already has a product of that name on the list (case-insensitive),
	// core.ErrNotFound if the vendor is not on the list.
	AddProduct(ctx context.Context, p Product) error
	// MergeProducts inserts product rows that do not exist yet (case-insensitive
	// per list and vendor) and returns how many it inserted. One call.
	MergeProducts(ctx context.Context, ps []Product) (int, error)
	// LockEntries takes a write lock on the entries of the given vendors on
	// a list for the rest of the unit of work (SELECT ... FOR UPDATE), so
	// that concurrent writes of their assessments take turns and each reads
	// what the one before it saved; vendors not on the list are ignored.
	// Stores whose units of work never run side by side need do nothing.
	LockEntries(ctx context.Context, listID uuid.UUID, vendorIDs []uuid.UUID) error
	// EntriesAfter returns at most limit entries of a list that come after
	// the key in the order of Entries (the zero key: from the first), with
	// their products: a keyset page, stable under concurrent writes.
	EntriesAfter(ctx context.Context, listID uuid.UUID, after EntryKey, limit int) ([]Entry, error)
	// EntryKeys returns the key (vendor name and id) of every entry of a
	// list in the order of Entries: a page in another order is chosen from
	// these without reading whole entries.
	EntryKeys(ctx context.Context, listID uuid.UUID) ([]EntryKey, error)
	// EntriesOf returns the entries of the given vendors on a list, as
	// Entries has them and in its order; vendors not on it are left out.
	EntriesOf(ctx context.Context, listID uuid.UUID, vendorIDs []uuid.UUID) ([]Entry, error)
}

// ListScope names the lists a count covers: one list of an account, or
// every list of it when ListID is nil.
type ListScope struct {
	AccountID uuid.UUID
	ListID    *uuid.UUID
}

// ListCounts are the counts of ListRepo.Counts.
type ListCounts struct {
	// Vendors counts the distinct vendors on the
	Vendors int
	// Followed counts those with alerts on, on at least one of the
	Followed int
	// Assessments counts the assessments on the lists with one of the
	// statuses asked for.
	Assessments int
}

// QuotaRepo records which custom vendors an account has had enriched.
type QuotaRepo interface {
	// Used counts the distinct vendors claimed by the account.
	Used(ctx context.Context, accountID uuid.UUID) (int, error)
	// Claimed returns which of vendorIDs the account has claimed already.
	Claimed(ctx context.Context, accountID uuid.UUID, vendorIDs []uuid.UUID) ([]uuid.UUID, error)
	// Claim records claims; existing claims are ignored.
	Claim(ctx context.Context, accountID uuid.UUID, vendorIDs []uuid.UUID, now time.Time) error
}
