package dircache

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports/stores"
)

func TestDirectoryEvictDropsTheNamedVendorsByEveryReference(t *testing.T) {
	d := newDirectory()
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	acme := vendors.View{Vendor: vendors.Vendor{ID: uuid.New(), Name: "Acme"}}
	globex := vendors.View{Vendor: vendors.Vendor{ID: uuid.New(), Name: "Globex"}}
	for ref, v := range map[string]vendors.View{"Acme": acme, acme.Vendor.ID.String(): acme, "Globex": globex} {
		d.put(ref, v, d.generation(), now)
	}
	d.evict(stores.Changed{Vendors: []uuid.UUID{acme.Vendor.ID}})
	for _, ref := range []string{"Acme", acme.Vendor.ID.String()} {
		if _, _, ok := d.get(ref, now); ok {
			t.Errorf("%s: served after its vendor was evicted", ref)
		}
	}
	if _, _, ok := d.get("Globex", now); !ok {
		t.Error("another vendor's view was dropped")
	}
	d.evict(stores.Changed{All: true})
	if _, _, ok := d.get("Globex", now); ok {
		t.Error("a view was served after every vendor was evicted")
	}
}

func TestDirectoryViewReadAcrossAnEvictionIsNotRemembered(t *testing.T) {
	d := newDirectory()
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	acme := vendors.View{Vendor: vendors.Vendor{ID: uuid.New(), Name: "Acme"}}
	tok := d.generation()                                         // the read starts, sees the store before the change ...
	d.evict(stores.Changed{Vendors: []uuid.UUID{acme.Vendor.ID}}) // ... the notice comes ...
	d.put("Acme", acme, tok, now)                                 // ... and the read ends
	if _, _, ok := d.get("Acme", now); ok {
		t.Fatal("a view read before a notice was remembered after it")
	}
	d.put("Acme", acme, d.generation(), now)
	if _, _, ok := d.get("Acme", now); !ok {
		t.Fatal("a view read after the notice was not remembered")
	}
}

// feedSpy records what the store announces, and when.
type feedSpy struct {
	staged, published []stores.Changed
	stageErr          error
}

func (f *feedSpy) Stage(_ context.Context, _ stores.Tx, c stores.Changed) error {
	f.staged = append(f.staged, c)
	return f.stageErr
}

func (f *feedSpy) Publish(_ context.Context, c stores.Changed) error {
	f.published = append(f.published, c)
	return nil
}

func (f *feedSpy) Subscribe(context.Context, func(), func(stores.Changed)) error {
	return errors.New("not a subscriber")
}

// oneTxStore runs every unit of work on a fake Tx whose vendor and profile
// writes succeed and store nothing.
type oneTxStore struct{ stores.Store }

func (oneTxStore) InTx(ctx context.Context, fn func(ctx context.Context, tx stores.Tx) error) error {
	return fn(ctx, fakeTx{})
}

type fakeTx struct{ stores.Tx }

func (fakeTx) Vendors() vendors.VendorRepo   { return fakeVendors{} }
func (fakeTx) Profiles() vendors.ProfileRepo { return fakeProfiles{} }
func (fakeTx) Lists() lists.ListRepo         { return nil }
func (fakeTx) Outbox() outbox.Repo           { return nil }
func (fakeTx) Users() accounts.UserRepo      { return fakeUsers{} }

type fakeUsers struct{ accounts.UserRepo }

func (fakeUsers) Save(context.Context, accounts.User) error { return nil }

type fakeVendors struct{ vendors.VendorRepo }

func (fakeVendors) Update(context.Context, vendors.Vendor) error { return nil }
func (fakeVendors) Ensure(_ context.Context, vs []vendors.Vendor) ([]vendors.Vendor, error) {
	return vs, nil
}
func (fakeVendors) Get(_ context.Context, id uuid.UUID) (vendors.Vendor, error) {
	return vendors.Vendor{ID: id}, nil
}

type fakeProfiles struct{ vendors.ProfileRepo }

func (fakeProfiles) Save(context.Context, vendors.Profile) error { return nil }
func (fakeProfiles) Delete(context.Context, uuid.UUID) error     { return nil }

func TestUnitOfWorkAnnouncesTheVendorsItWrote(t *testing.T) {
	a, b := uuid.New(), uuid.New()
	many := make([]vendors.Vendor, maxNamedChanges+1)
	for i := range many {
		many[i].ID = uuid.New()
	}
	boom := errors.New("boom")
	acct := uuid.New()
	cases := []struct {
		name    string
		scope   uuid.UUID // the account the unit of work acts in, or Nil
		fn      func(ctx context.Context, tx stores.Tx) error
		wantErr error
		want    []stores.Changed // staged and published
	}{
		{"reads only: a unit of work that commits says data changed", uuid.Nil, func(ctx context.Context, tx stores.Tx) error {
			_, err := tx.Vendors().Get(ctx, a)
			return err
		}, nil, []stores.Changed{{Data: true}}},
		{"bookkeeping only: nothing to tell", acct, func(ctx context.Context, tx stores.Tx) error {
			_ = tx.Outbox()
			return nil
		}, nil, nil},
		{"in an account's scope: that account's data", acct, func(ctx context.Context, tx stores.Tx) error {
			_ = tx.Lists()
			_, err := tx.Vendors().Get(ctx, a)
			return err
		}, nil, []stores.Changed{{Data: true, Accounts: []uuid.UUID{acct}}}},
		{"in an account's scope, new directory entries: still that account's", acct, func(ctx context.Context, tx stores.Tx) error {
			_, err := tx.Vendors().Ensure(ctx, []vendors.Vendor{{ID: a}})
			return err
		}, nil, []stores.Changed{{Data: true, Vendors: []uuid.UUID{a}, Accounts: []uuid.UUID{acct}}}},
		{"in an account's scope, a website for an entry: every account's", acct, func(ctx context.Context, tx stores.Tx) error {
			_, err := tx.Vendors().Ensure(ctx, []vendors.Vendor{{ID: a, WebsiteURL: "https://a.example"}})
			return err
		}, nil, []stores.Changed{{Data: true, Vendors: []uuid.UUID{a}}}},
		{"in an account's scope, a user written: every account's", acct, func(ctx context.Context, tx stores.Tx) error {
			_ = tx.Lists()
			return tx.Users().Save(ctx, accounts.User{})
		}, nil, []stores.Changed{{Data: true}}},
		{"in an account's scope, a profile written: every account's", acct, func(ctx context.Context, tx stores.Tx) error {
			return tx.Profiles().Save(ctx, vendors.Profile{VendorID: b})
		}, nil, []stores.Changed{{Data: true, Vendors: []uuid.UUID{b}}}},
		{"an update and a profile save, a vendor once", uuid.Nil, func(ctx context.Context, tx stores.Tx) error {
			return errors.Join(tx.Vendors().Update(ctx, vendors.Vendor{ID: a}), tx.Profiles().Save(ctx, vendors.Profile{VendorID: b}),
				tx.Profiles().Delete(ctx, a))
		}, nil, []stores.Changed{{Vendors: []uuid.UUID{a, b}, Data: true}}},
		{"more than a notice names", uuid.Nil, func(ctx context.Context, tx stores.Tx) error {
			_, err := tx.Vendors().Ensure(ctx, many)
			return err
		}, nil, []stores.Changed{{All: true, Data: true}}},
		{"rolled back", uuid.Nil, func(ctx context.Context, tx stores.Tx) error {
			_ = tx.Vendors().Update(ctx, vendors.Vendor{ID: a})
			return boom
		}, boom, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			spy := &feedSpy{}
			cache := New(nil, Options{})
			var told []stores.Changed
			cache.OnCommit(func(c stores.Changed) { told = append(told, c) })
			w := cache.Watch(oneTxStore{}, spy)
			ctx := context.Background()
			if c.scope != uuid.Nil {
				ctx = stores.WithAccountScope(ctx, c.scope)
			}
			if err := w.InTx(ctx, c.fn); !errors.Is(err, c.wantErr) {
				t.Fatalf("InTx: %v, want %v", err, c.wantErr)
			}
			for what, got := range map[string][]stores.Changed{"staged": spy.staged, "published": spy.published, "told here": told} {
				if !slices.EqualFunc(got, c.want, func(x, y stores.Changed) bool {
					return x.All == y.All && x.Data == y.Data && slices.Equal(x.Vendors, y.Vendors) && slices.Equal(x.Accounts, y.Accounts)
				}) {
					t.Errorf("%s %v, want %v", what, got, c.want)
				}
			}
		})
	}
}

func TestAFailedStageFailsTheUnitOfWork(t *testing.T) {
	boom := errors.New("notify failed")
	spy := &feedSpy{stageErr: boom}
	w := watchedStore{Store: oneTxStore{}, dir: newDirectory(), feed: spy}
	err := w.InTx(context.Background(), func(ctx context.Context, tx stores.Tx) error {
		return tx.Vendors().Update(ctx, vendors.Vendor{ID: uuid.New()})
	})
	if !errors.Is(err, boom) || len(spy.published) != 0 {
		t.Fatalf("InTx: %v, published %v", err, spy.published)
	}
}

// A unit of work that only reads the directory (an assessment's upsert
// looks its vendor up) leaves the remembered views alone; one that writes
// an entry or a profile, even one that then fails, does not.
func TestOnlyDirectoryWritesMoveTheGeneration(t *testing.T) {
	id := uuid.New()
	boom := errors.New("boom")
	for _, c := range []struct {
		name  string
		fn    func(ctx context.Context, tx stores.Tx) error
		moves bool
	}{
		{"a read", func(ctx context.Context, tx stores.Tx) error {
			_, err := tx.Vendors().Get(ctx, id)
			return err
		}, false},
		{"a profile write", func(ctx context.Context, tx stores.Tx) error {
			return tx.Profiles().Save(ctx, vendors.Profile{VendorID: id})
		}, true},
		{"an entry's update, rolled back", func(ctx context.Context, tx stores.Tx) error {
			_ = tx.Vendors().Update(ctx, vendors.Vendor{ID: id})
			return boom
		}, true},
		{"new entries", func(ctx context.Context, tx stores.Tx) error {
			_, err := tx.Vendors().Ensure(ctx, []vendors.Vendor{{ID: id}})
			return err
		}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := watchedStore{Store: oneTxStore{}, dir: newDirectory()}
			before := w.dir.generation()
			_ = w.InTx(context.Background(), c.fn)
			if moved := w.dir.generation() != before; moved != c.moves {
				t.Fatalf("the generation moved: %v, want %v", moved, c.moves)
			}
		})
	}
}
