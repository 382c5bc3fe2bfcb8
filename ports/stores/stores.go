// Package stores is the whole unit of work: Store runs a function in one
// transaction over Tx, which holds the repositories of every area. Adapters
// implement it (adapters/sqlstore, ports/memstore) and ports/porttest holds
// the conformance suite they all pass. The business areas do not import it:
// each declares the narrow store it needs in its own store.go, and the
// wiring (core/usecases) hands each area this one narrowed to its view.
package stores

import (
	"context"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/alerts"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/attestations"
	"github.com/vetted-dev/vetted/core/contracts"
	"github.com/vetted-dev/vetted/core/incidents"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/platform/mailonce"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/records"
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

// Tx is one unit of work: the repositories of every area (each area's Tx,
// declared in its store.go), all seeing the same transaction. An adapter's
// transaction that implements Tx implements every area's view of it, so
// ports.Narrow cannot fail on it.
// Repository methods return errors wrapping core.ErrNotFound or
// core.ErrConflict where stated; any other error is an infrastructure failure.
type Tx interface {
	accounts.Tx
	vendors.Tx
	lists.Tx
	assessments.Tx
	alerts.Tx
	webhooks.Tx
	incidents.Tx
	records.Tx
	contracts.Tx
	attestations.Tx
	mailonce.Tx
	outbox.Tx
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
