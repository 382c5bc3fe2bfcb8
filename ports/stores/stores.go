// Package stores is the whole unit of work: Store runs a function in one
// transaction over Tx, which holds the repositories of every area. Adapters
// implement it (adapters/sqlstore, ports/memstore) and ports/porttest holds
// the conformance suite they all pass. The business areas do not import it:
// each declares the narrow store it needs in its own store.go, and the
// wiring (core/usecases) hands each area this one narrowed to its view.
package stores

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/document"
	"github.com/vetted-dev/vetted/core/platform/mailonce"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/review"
	"github.com/vetted-dev/vetted/core/subscriber"
	"github.com/vetted-dev/vetted/core/vendorlist"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/core/webhooks"
)

// Store is the persistence port. Every write use case runs in one InTx; reads
// may use View. A function that returns an error rolls the unit back and
// leaves no trace. Implementations retry serialization failures themselves,
// so fn may run more than once and must not have effects outside tx.
type Store interface {
	InTx(ctx context.Context, fn func(ctx context.Context, tx Tx) error) error
	View(ctx context.Context, fn func(ctx context.Context, tx Tx) error) error
	Ping(ctx context.Context) error
}

// Tx is one unit of work: the repositories, all seeing the same transaction.
// Repository methods return errors wrapping core.ErrNotFound or
// core.ErrConflict where stated; any other error is an infrastructure failure.
type Tx interface {
	accounts.Tx
	vendors.Tx
	Lists() ListRepo
	Quota() QuotaRepo
	Assessments() AssessmentRepo
	ReviewPolicies() ReviewPolicyRepo
	CalendarKeys() CalendarKeyRepo
	Reminders() ReminderRepo
	Documents() DocumentRepo
	Subscribers() SubscriberRepo
	Deliveries() mailonce.Repo
	Outbox() outbox.Repo
	webhooks.Tx
}

// ListRepo stores vendor lists, their entries and product rows.
type ListRepo interface {
	// Create inserts a list; core.ErrConflict if the account has a list of that name.
	Create(ctx context.Context, l vendorlist.List) error
	// Get returns a list of the account (with VendorCount), or core.ErrNotFound
	// (also when the list belongs to another account).
	Get(ctx context.Context, accountID, id uuid.UUID) (vendorlist.List, error)
	// GetByName returns a list of the account by exact name, or core.ErrNotFound.
	GetByName(ctx context.Context, accountID uuid.UUID, name string) (vendorlist.List, error)
	// ListByAccount returns the account's lists with VendorCount, by name.
	ListByAccount(ctx context.Context, accountID uuid.UUID) ([]vendorlist.List, error)
	// Delete removes a list with its entries, products, assessments and
	// subscribers; core.ErrNotFound if absent.
	Delete(ctx context.Context, accountID, id uuid.UUID) error
	// Entries returns the entries of a list with vendor name, website,
	// is_custom, enrichment status and products, ordered by vendor name.
	Entries(ctx context.Context, listID uuid.UUID) ([]vendorlist.Entry, error)
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
	// vendorlist.List.Revision names what a read of the list showed.
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
	AddProduct(ctx context.Context, p vendorlist.Product) error
	// MergeProducts inserts product rows that do not exist yet (case-insensitive
	// per list and vendor) and returns how many it inserted. One call.
	MergeProducts(ctx context.Context, ps []vendorlist.Product) (int, error)
	// LockEntries takes a write lock on the entries of the given vendors on
	// a list for the rest of the unit of work (SELECT ... FOR UPDATE), so
	// that concurrent writes of their assessments take turns and each reads
	// what the one before it saved; vendors not on the list are ignored.
	// Stores whose units of work never run side by side need do nothing.
	LockEntries(ctx context.Context, listID uuid.UUID, vendorIDs []uuid.UUID) error
	// EntriesAfter returns at most limit entries of a list that come after
	// the key in the order of Entries (the zero key: from the first), with
	// their products: a keyset page, stable under concurrent writes.
	EntriesAfter(ctx context.Context, listID uuid.UUID, after EntryKey, limit int) ([]vendorlist.Entry, error)
	// EntryKeys returns the key (vendor name and id) of every entry of a
	// list in the order of Entries: a page in another order is chosen from
	// these without reading whole entries.
	EntryKeys(ctx context.Context, listID uuid.UUID) ([]EntryKey, error)
	// EntriesOf returns the entries of the given vendors on a list, as
	// Entries has them and in its order; vendors not on it are left out.
	EntriesOf(ctx context.Context, listID uuid.UUID, vendorIDs []uuid.UUID) ([]vendorlist.Entry, error)
	// Counts counts over the lists of scope, in one set-based read whatever
	// their number: the distinct vendors on them, those with alerts on on
	// at least one of them, and the assessments on them whose status is
	// one of statuses. A list of another account counts nothing.
	Counts(ctx context.Context, scope ListScope, statuses []review.Status) (ListCounts, error)
}

// ListScope names the lists a count covers: one list of an account, or
// every list of it when ListID is nil.
type ListScope struct {
	AccountID uuid.UUID
	ListID    *uuid.UUID
}

// ListCounts are the counts of ListRepo.Counts.
type ListCounts struct {
	// Vendors counts the distinct vendors on the lists.
	Vendors int
	// Followed counts those with alerts on, on at least one of the lists.
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

// AssessmentFilter selects assessments of one list; nil fields do not filter.
type AssessmentFilter struct {
	AccountID       uuid.UUID
	ListID          *uuid.UUID
	VendorID        *uuid.UUID
	VendorProfileID *uuid.UUID
	ID              *uuid.UUID
}

// AssessmentRepo stores assessments (one per list and vendor) and audit events.
type AssessmentRepo interface {
	// Get returns an assessment of the account, or core.ErrNotFound.
	Get(ctx context.Context, accountID, id uuid.UUID) (review.Assessment, error)
	// ListByVendors returns the assessments of a list for the given vendors.
	ListByVendors(ctx context.Context, listID uuid.UUID, vendorIDs []uuid.UUID) ([]review.Assessment, error)
	// Find returns the assessments matching f, newest update first.
	Find(ctx context.Context, f AssessmentFilter) ([]review.Assessment, error)
	// Timings returns the timing (review.TimingOf) of each assessment
	// matching f, in no order: a count of reviews due reads these few
	// columns, not whole assessments.
	Timings(ctx context.Context, f AssessmentFilter) ([]review.Timing, error)
	// Save inserts or updates assessments by id (one call for many);
	// core.ErrConflict if a new one collides on (list, vendor).
	Save(ctx context.Context, as []review.Assessment) error
	// Delete removes an assessment with its audit events and document
	// records; core.ErrNotFound if absent.
	Delete(ctx context.Context, accountID, id uuid.UUID) error
	// AppendEvents stores audit events.
	AppendEvents(ctx context.Context, es []review.AuditEvent) error
	// Events returns a page of an assessment's events, newest first, and the total.
	Events(ctx context.Context, assessmentID uuid.UUID, offset, limit int) ([]review.AuditEvent, int, error)
}

// DocumentRepo stores evidence document records.
type DocumentRepo interface {
	// Create inserts a record.
	Create(ctx context.Context, d document.Document) error
	// Get returns a record of the account, or core.ErrNotFound.
	Get(ctx context.Context, accountID, id uuid.UUID) (document.Document, error)
	// ListByAssessment returns the records of an assessment, oldest first.
	ListByAssessment(ctx context.Context, assessmentID uuid.UUID) ([]document.Document, error)
	// ListByAccount returns every record of an account (for blob cleanup).
	ListByAccount(ctx context.Context, accountID uuid.UUID) ([]document.Document, error)
	// Update stores the status, size and SHA-256 of a record.
	Update(ctx context.Context, d document.Document) error
	// Delete removes a record; core.ErrNotFound if absent.
	Delete(ctx context.Context, accountID, id uuid.UUID) error
}

// SubscriberRepo stores subscribers, unique per (list, e-mail).
type SubscriberRepo interface {
	// List returns a list's subscribers by e-mail; IsMember is filled in by
	// the service, not the store.
	List(ctx context.Context, listID uuid.UUID) ([]subscriber.Subscriber, error)
	// Get returns a subscriber by id, or core.ErrNotFound.
	Get(ctx context.Context, id uuid.UUID) (subscriber.Subscriber, error)
	// GetByEmail returns the subscriber of a list with that e-mail, or core.ErrNotFound.
	GetByEmail(ctx context.Context, listID uuid.UUID, email string) (subscriber.Subscriber, error)
	// Save inserts or updates a subscriber by id; core.ErrConflict if another
	// subscriber of the list has the e-mail.
	Save(ctx context.Context, s subscriber.Subscriber) error
	// Delete removes subscribers of a list by e-mail and returns how many.
	Delete(ctx context.Context, listID uuid.UUID, emails []string) (int, error)
	// Recipients returns the confirmed subscribers of every list that carries
	// the vendor with alerts enabled, with the list name.
	Recipients(ctx context.Context, vendorID uuid.UUID) ([]subscriber.Recipient, error)
}

// Changed names the vendors whose directory entries or profiles a unit of
// work changed, so that every process drops what it remembers of them (the
// vendor views of GetVendor and their encoded answers). All means every
// vendor: too many changed to name them one by one, or notices may have been
// missed (a subscription that was lost and is listening again). Data means
// the unit of work committed a write of any kind (lists, reviews, members,
// policies...): answers remembered of account reads are stale. Accounts,
// when Data, narrows that: the unit of work wrote the data of these
// accounts only (it ran in their scope, see WithAccountScope, and changed
// nothing that other accounts show: no user, incident or existing directory
// entry), so only their answers are stale; empty, any account's may be.
type Changed struct {
	Vendors  []uuid.UUID
	All      bool
	Data     bool
	Accounts []uuid.UUID
}

// Empty reports whether c tells of nothing: a unit of work that only kept
// books (the outbox, job runs, mail deliveries) announces nothing.
func (c Changed) Empty() bool { return !c.Data && !c.All && len(c.Vendors) == 0 }

type accountScopeKey struct{}

// WithAccountScope marks ctx as acting in one account: a request that names
// its account (account-id) runs its units of work in that scope, so the
// notices of their commits can name the account (Changed.Accounts).
func WithAccountScope(ctx context.Context, accountID uuid.UUID) context.Context {
	return context.WithValue(ctx, accountScopeKey{}, accountID)
}

// AccountScope returns the account ctx acts in, if WithAccountScope set one.
func AccountScope(ctx context.Context) (uuid.UUID, bool) {
	id, ok := ctx.Value(accountScopeKey{}).(uuid.UUID)
	return id, ok && id != uuid.Nil
}

// ChangeFeed carries Changed notices between the processes that share a
// store (API replicas, workers). Notices are hints for caches, never data:
// a notice may come twice or name a vendor that did not change, and one sent
// while a subscriber was not listening is lost (its subscriber drops
// everything when it listens again).
type ChangeFeed interface {
	// Stage announces c inside tx, the unit of work that made the changes,
	// just before it commits. A feed that travels with the store's
	// transactions (PostgreSQL NOTIFY) is delivered when tx commits and
	// never if it rolls back; any other feed does nothing here. tx is the
	// store's own (not a wrapper of it).
	Stage(ctx context.Context, tx Tx, c Changed) error
	// Publish announces c after the unit of work that staged it committed;
	// a feed that was delivered by Stage does nothing here. It is best
	// effort: an error is logged, the write stands, and the staleness of
	// remembered views stays bounded by their age.
	Publish(ctx context.Context, c Changed) error
	// Subscribe listens for notices, from every process including this
	// one, until ctx ends or the connection is lost. Once it listens it
	// calls ready; then it calls h for each notice, in the order heard, from
	// one goroutine. It returns ctx.Err() when ctx ends, else the error that
	// ended it; the caller subscribes again and, since notices were missed
	// meanwhile, treats everything it remembers as changed once ready is
	// called again.
	Subscribe(ctx context.Context, ready func(), h func(Changed)) error
}
