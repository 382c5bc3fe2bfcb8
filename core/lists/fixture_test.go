package lists_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/platform/uow"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports"
	"github.com/vetted-dev/vetted/ports/memstore"
)

type fixedClock struct{}

func (fixedClock) Now() time.Time { return time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC) }

// fixture is one account with its master list on the memory store, a
// member to act, and the list service with a real directory service whose
// enrichment runs are counted.
type fixture struct {
	s      *lists.Service
	st     *memstore.Store
	dir    *directory
	reads  *reads
	a      accounts.Actor
	ref    accounts.AccountRef
	master lists.List
	t      *testing.T
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{st: memstore.New(), reads: &reads{}, a: accounts.Actor{UserID: uuid.New(), Email: "ann@acme.test"}, t: t}
	acc := accounts.Account{ID: uuid.New(), Name: "Acme", Active: true}
	f.ref = accounts.AccountRef{ID: acc.ID}
	var err error
	if f.master, err = lists.New(uuid.New(), acc.ID, lists.MasterList, fixedClock{}.Now()); err != nil {
		t.Fatal(err)
	}
	f.write(func(ctx context.Context, tx lists.Tx) error {
		if err := tx.Accounts().Create(ctx, acc); err != nil {
			return err
		}
		if err := tx.Users().Save(ctx, accounts.User{ID: f.a.UserID, Email: f.a.Email}); err != nil {
			return err
		}
		if err := tx.Members().Put(ctx, []accounts.Member{{AccountID: acc.ID, UserID: f.a.UserID, Role: accounts.RoleMember}}); err != nil {
			return err
		}
		return tx.Lists().Create(ctx, f.master)
	})
	vs, err := vendors.NewService(vendors.Deps{Unit: uow.Unit[vendors.Tx]{Store: ports.Narrow[vendors.Tx](f.st), Clock: fixedClock{}, IDs: ports.UUIDv7{}},
		Enricher: noEnricher{}, Incidents: noIncidents{}})
	if err != nil {
		t.Fatal(err)
	}
	f.dir = &directory{Service: vs}
	f.s, err = lists.NewService(lists.Deps{Unit: uow.Unit[lists.Tx]{Store: counted{ports.Narrow[lists.Tx](f.st), f.reads}, Clock: fixedClock{}, IDs: ports.UUIDv7{}},
		Directory: f.dir, Files: func(context.Context, lists.Tx, uuid.UUID, uuid.UUID) ([]string, error) { return nil, nil }})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// write runs fn in a unit of work on the store; read in a read-only one.
func (f *fixture) write(fn func(context.Context, lists.Tx) error) {
	f.t.Helper()
	if err := ports.Narrow[lists.Tx](f.st).InTx(f.t.Context(), fn); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) read(fn func(context.Context, lists.Tx) error) {
	f.t.Helper()
	if err := ports.Narrow[lists.Tx](f.st).View(f.t.Context(), fn); err != nil {
		f.t.Fatal(err)
	}
}

// onLists names the vendors on the account's lists, sorted.
func (f *fixture) onLists() []string {
	f.t.Helper()
	var out []string
	f.read(func(ctx context.Context, tx lists.Tx) error {
		ls, err := tx.Lists().ListByAccount(ctx, f.ref.ID)
		for _, l := range ls {
			es, err := tx.Lists().Entries(ctx, l.ID)
			if err != nil {
				return err
			}
			for _, e := range es {
				out = append(out, e.VendorName)
			}
		}
		return err
	})
	slices.Sort(out)
	return out
}

// directory is the directory service, counting the enrichment runs it
// starts and the vendors of each.
type directory struct {
	*vendors.Service
	mu      sync.Mutex
	started [][]vendors.Vendor
}

func (d *directory) StartEnrichRun(ctx context.Context, tx vendors.Tx, by string, vs []vendors.Vendor, sections []string, settled ...vendors.RunJob) (vendors.Run, error) {
	d.mu.Lock()
	d.started = append(d.started, vs)
	d.mu.Unlock()
	return d.Service.StartEnrichRun(ctx, tx, by, vs, sections, settled...)
}

func (d *directory) runs() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.started)
}

// noEnricher and noIncidents are the directory's sources, never reached
// by the list use cases.
type (
	noEnricher  struct{ vendors.Enricher }
	noIncidents struct{ vendors.IncidentSource }
)

// reads counts the service's reads of entries: pages (EntriesAfter and
// EntriesOf) and whole key lists (EntryKeys).
type reads struct {
	mu          sync.Mutex
	pages, keys int
}

func (r *reads) counts() (pages, keys int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.pages, r.keys
}

func (r *reads) reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.pages, r.keys = 0, 0
}

func (r *reads) add(pages, keys int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.pages += pages
	r.keys += keys
}

// counted is the store's unit of work with its entry reads counted.
type counted struct {
	ports.UnitOfWork[lists.Tx]
	r *reads
}

func (u counted) InTx(ctx context.Context, fn func(context.Context, lists.Tx) error) error {
	return u.UnitOfWork.InTx(ctx, func(ctx context.Context, tx lists.Tx) error { return fn(ctx, countedTx{tx, u.r}) })
}

func (u counted) View(ctx context.Context, fn func(context.Context, lists.Tx) error) error {
	return u.UnitOfWork.View(ctx, func(ctx context.Context, tx lists.Tx) error { return fn(ctx, countedTx{tx, u.r}) })
}

type countedTx struct {
	lists.Tx
	r *reads
}

func (t countedTx) Lists() lists.ListRepo { return countedLists{t.Tx.Lists(), t.r} }

type countedLists struct {
	lists.ListRepo
	r *reads
}

func (l countedLists) EntriesAfter(ctx context.Context, id uuid.UUID, after lists.EntryKey, limit int) ([]lists.Entry, error) {
	l.r.add(1, 0)
	return l.ListRepo.EntriesAfter(ctx, id, after, limit)
}

func (l countedLists) EntriesOf(ctx context.Context, id uuid.UUID, vs []uuid.UUID) ([]lists.Entry, error) {
	l.r.add(1, 0)
	return l.ListRepo.EntriesOf(ctx, id, vs)
}

func (l countedLists) EntryKeys(ctx context.Context, id uuid.UUID) ([]lists.EntryKey, error) {
	l.r.add(0, 1)
	return l.ListRepo.EntryKeys(ctx, id)
}

// named parses vendor names as the HTTP layer does, once.
func named(t testing.TB, names ...string) []vendors.VendorRef {
	t.Helper()
	refs, err := vendors.ParseRefs(names, nil)
	if err != nil {
		t.Fatal(err)
	}
	return refs
}

// namedSite parses one vendor with its website.
func namedSite(t testing.TB, name, site string) vendors.VendorRef {
	t.Helper()
	refs, err := vendors.ParseRefs([]string{name}, []string{site})
	if err != nil {
		t.Fatal(err)
	}
	return refs[0]
}
