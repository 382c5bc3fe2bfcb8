package porttest

import (
	"context"
	"errors"
	"testing"

	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports/stores"
)

var errBoom = errors.New("boom")

// leftNoTrace checks that a failed unit of work that created an org, a
// user, a vendor and an outbox message left none of them behind.
func leftNoTrace(t *testing.T, f *fixture, a accounts.Account, u accounts.User, v vendors.Vendor) {
	t.Helper()
	_, err := loadErr(f, func(ctx context.Context, tx stores.Tx) (accounts.Account, error) { return tx.Accounts().Get(ctx, a.ID) })
	wantErr(t, "account after rollback", err, core.ErrNotFound)
	_, err = loadErr(f, func(ctx context.Context, tx stores.Tx) (accounts.User, error) { return tx.Users().Get(ctx, u.ID) })
	wantErr(t, "user after rollback", err, core.ErrNotFound)
	_, err = loadErr(f, func(ctx context.Context, tx stores.Tx) (vendors.Vendor, error) {
		return tx.Vendors().GetByName(ctx, v.Name)
	})
	wantErr(t, "vendor after rollback", err, core.ErrNotFound)
	pending := load(f, func(ctx context.Context, tx stores.Tx) (int, error) { return tx.Outbox().Pending(ctx) })
	equal(t, "pending outbox after rollback", pending, 0)
}

// writeMany is a unit of work body that writes to several repositories.
func writeMany(f *fixture, a accounts.Account, u accounts.User, v vendors.Vendor) txFn {
	m := f.newMessage()
	return func(ctx context.Context, tx stores.Tx) error {
		if err := tx.Accounts().Create(ctx, a); err != nil {
			return err
		}
		if err := tx.Users().Save(ctx, u); err != nil {
			return err
		}
		if _, err := tx.Vendors().Ensure(ctx, []vendors.Vendor{v}); err != nil {
			return err
		}
		return tx.Outbox().Add(ctx, m)
	}
}

var unitOfWorkCases = []testCase{
	{"error rolls back every write and is returned", func(t *testing.T, f *fixture) {
		a, u, v := f.newOrg("Acme Org"), f.newUser("ann@example.com"), f.newVendor("Zeta", "")
		body := writeMany(f, a, u, v)
		err := f.try(func(ctx context.Context, tx stores.Tx) error {
			if err := body(ctx, tx); err != nil {
				return err
			}
			return errBoom
		})
		wantErr(t, "InTx", err, errBoom)
		leftNoTrace(t, f, a, u, v)
	}},
	{"panic rolls back every write and is re-raised", func(t *testing.T, f *fixture) {
		a, u, v := f.newOrg("Acme Org"), f.newUser("ann@example.com"), f.newVendor("Zeta", "")
		body := writeMany(f, a, u, v)
		var recovered any
		func() {
			defer func() { recovered = recover() }()
			_ = f.try(func(ctx context.Context, tx stores.Tx) error {
				if err := body(ctx, tx); err != nil {
					return err
				}
				panic(errBoom)
			})
		}()
		if err, _ := recovered.(error); !errors.Is(err, errBoom) {
			t.Fatalf("recovered %v, want the panic value %v", recovered, errBoom)
		}
		leftNoTrace(t, f, a, u, v)
	}},
	{"rollback restores updated and deleted rows", func(t *testing.T, f *fixture) {
		u := f.user("ann@example.com")
		a := f.org("Acme Org")
		l := f.list(a.ID, lists.MasterList)
		vs := f.vendors("Zeta")
		f.onList(l.ID, vs...)
		err := f.try(func(ctx context.Context, tx stores.Tx) error {
			changed := u
			changed.Name, changed.Email = "Changed", "changed@example.com"
			if err := tx.Users().Save(ctx, changed); err != nil {
				return err
			}
			if err := tx.Lists().SetAlerts(ctx, l.ID, vs[0].ID, false); err != nil {
				return err
			}
			if err := tx.Accounts().Delete(ctx, a.ID); err != nil {
				return err
			}
			return errBoom
		})
		wantErr(t, "InTx", err, errBoom)
		got := load(f, func(ctx context.Context, tx stores.Tx) (accounts.User, error) {
			return tx.Users().GetByEmail(ctx, u.Email)
		})
		equal(t, "user name after rollback", got.Name, u.Name)
		_, err = loadErr(f, func(ctx context.Context, tx stores.Tx) (accounts.User, error) {
			return tx.Users().GetByEmail(ctx, "changed@example.com")
		})
		wantErr(t, "new e-mail after rollback", err, core.ErrNotFound)
		es := load(f, func(ctx context.Context, tx stores.Tx) ([]lists.Entry, error) {
			return tx.Lists().Entries(ctx, l.ID)
		})
		if len(es) != 1 || !es[0].AlertsEnabled {
			t.Fatalf("entries after rollback: got %+v, want one with alerts enabled", es)
		}
		gotL := load(f, func(ctx context.Context, tx stores.Tx) (lists.List, error) {
			return tx.Lists().Get(ctx, a.ID, l.ID)
		})
		equal(t, "list vendor count after rollback", gotL.VendorCount, 1)
	}},
	{"writes are visible later in the same unit of work", func(t *testing.T, f *fixture) {
		a := f.newOrg("Acme Org")
		var got accounts.Account
		f.write(func(ctx context.Context, tx stores.Tx) error {
			if err := tx.Accounts().Create(ctx, a); err != nil {
				return err
			}
			var err error
			got, err = tx.Accounts().Get(ctx, a.ID)
			return err
		})
		equal(t, "account name", got.Name, a.Name)
	}},
	{"View sees committed data", func(t *testing.T, f *fixture) {
		a := f.org("Acme Org")
		got := load(f, func(ctx context.Context, tx stores.Tx) (accounts.Account, error) { return tx.Accounts().Get(ctx, a.ID) })
		equal(t, "account id", got.ID, a.ID)
		equal(t, "account name", got.Name, "Acme Org")
		equal(t, "account active", got.Active, true)
		equal(t, "account personal", got.Personal, false)
		sameTime(t, "account created_at", got.CreatedAt, a.CreatedAt)
	}},
	{"Ping answers", func(t *testing.T, f *fixture) {
		if err := f.s.Ping(f.ctx); err != nil {
			t.Fatalf("Ping: %v", err)
		}
	}},
}
