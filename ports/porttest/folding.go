package porttest

import (
	"context"
	"testing"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/alerts"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports/stores"
)

// The folding cases pin down what "case-insensitive" means for every name a
// store keeps unique: Unicode lower case as Go's strings.ToLower folds it,
// not just ASCII (SQLite's lower() folds ASCII only). List names are unique
// case-insensitively too, but looked up exactly.

var foldingCases = []testCase{
	{"user e-mails fold case beyond ASCII", func(t *testing.T, f *fixture) {
		u := f.newUser("Zoë.Ärger@Example.COM")
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Users().Save(ctx, u) })
		got := load(f, func(ctx context.Context, tx stores.Tx) (accounts.User, error) {
			return tx.Users().GetByEmail(ctx, "ZOË.ÄRGER@EXAMPLE.COM")
		})
		equal(t, "by upper-case e-mail", got.ID, u.ID)
		equal(t, "stored e-mail", got.Email, "zoë.ärger@example.com")
		byList := load(f, func(ctx context.Context, tx stores.Tx) ([]accounts.User, error) {
			return tx.Users().ListByEmails(ctx, []string{"ZOË.ärger@example.com"})
		})
		sameIDs(t, "ListByEmails", idsOf(byList, func(u accounts.User) uuid.UUID { return u.ID }), []uuid.UUID{u.ID})
		other := f.newUser("zoë.ärger@example.com")
		wantErr(t, "same e-mail, other case", saveUser(f, other), core.ErrConflict)
	}},
	{"organization names fold case beyond ASCII", func(t *testing.T, f *fixture) {
		f.org("Ångström Öl")
		wantErr(t, "other case", createAccount(f, f.newOrg("ÅNGSTRÖM ÖL")), core.ErrConflict)
		if err := createAccount(f, f.newOrg("Angstrom Ol")); err != nil {
			t.Fatalf("a name without the accents is another name: %v", err)
		}
	}},
	{"vendor names fold case beyond ASCII", func(t *testing.T, f *fixture) {
		v := f.vendors("Ångström Labs")[0]
		got := f.ensure(f.newVendor("ÅNGSTRÖM LABS", ""))
		equal(t, "Ensure finds the entry", got[0].ID, v.ID)
		equal(t, "stored name", got[0].Name, vendors.Name("Ångström Labs"))
		byName := load(f, func(ctx context.Context, tx stores.Tx) (vendors.Vendor, error) {
			return tx.Vendors().GetByName(ctx, "ångström labs")
		})
		equal(t, "GetByName", byName.ID, v.ID)
		all := load(f, func(ctx context.Context, tx stores.Tx) ([]vendors.Vendor, error) { return tx.Vendors().List(ctx) })
		equal(t, "directory size", len(all), 1)
	}},
	{"list names are unique case-insensitively and looked up exactly", func(t *testing.T, f *fixture) {
		a := f.org("Acme")
		l := f.list(a.ID, "Prüfung")
		for _, name := range []string{"PRÜFUNG", "prüfung"} {
			err := f.try(func(ctx context.Context, tx stores.Tx) error { return tx.Lists().Create(ctx, f.newList(a.ID, name)) })
			wantErr(t, "create "+name, err, core.ErrConflict)
		}
		_, err := loadErr(f, func(ctx context.Context, tx stores.Tx) (lists.List, error) {
			return tx.Lists().GetByName(ctx, a.ID, "prüfung")
		})
		wantErr(t, "GetByName in another case", err, core.ErrNotFound)
		got := load(f, func(ctx context.Context, tx stores.Tx) (lists.List, error) {
			return tx.Lists().GetByName(ctx, a.ID, "Prüfung")
		})
		equal(t, "GetByName exact", got.ID, l.ID)
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Lists().Delete(ctx, a.ID, l.ID) })
		f.list(a.ID, "PRÜFUNG")
	}},
	{"product names fold case beyond ASCII", func(t *testing.T, f *fixture) {
		a := f.org("Acme")
		l := f.list(a.ID, lists.MasterList)
		v := f.vendors("Acme")[0]
		f.onList(l.ID, v)
		f.product(l.ID, v.ID, "Éclair")
		wantErr(t, "other case", addProduct(f, f.newProduct(l.ID, v.ID, "ÉCLAIR")), core.ErrConflict)
		var n int
		f.write(func(ctx context.Context, tx stores.Tx) (err error) {
			n, err = tx.Lists().MergeProducts(ctx, []lists.Product{f.newProduct(l.ID, v.ID, "éclair")})
			return err
		})
		equal(t, "merged", n, 0)
	}},
	{"subscriber e-mails fold case beyond ASCII", func(t *testing.T, f *fixture) {
		a := f.org("Acme")
		l := f.list(a.ID, lists.MasterList)
		s := f.subscriber(l, "Zoë@Example.com", true)
		got := load(f, func(ctx context.Context, tx stores.Tx) (alerts.Subscriber, error) {
			return tx.Subscribers().GetByEmail(ctx, l.ID, "ZOË@EXAMPLE.COM")
		})
		equal(t, "by upper-case e-mail", got.ID, s.ID)
		equal(t, "stored e-mail", got.Email, "zoë@example.com")
		wantErr(t, "same e-mail, other case", saveSubscriber(f, f.newSubscriber(l, "zoë@example.com", false)), core.ErrConflict)
		var n int
		f.write(func(ctx context.Context, tx stores.Tx) (err error) {
			n, err = tx.Subscribers().Delete(ctx, l.ID, []string{"ZOË@example.com"})
			return err
		})
		equal(t, "deleted", n, 1)
	}},
}
