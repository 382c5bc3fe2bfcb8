package sqlstore_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports/stores"
)

// TestAccountVendorsMigration: entries written before the account_vendors
// table and its triggers existed (they are taken away here) are counted
// once the migration has run, twice over, and writes after it keep the
// counts.
func TestAccountVendorsMigration(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "vetted.db")
	s := mustOpen(t, path)
	now := time.Now().UTC()
	acc := org(t, "Acme")
	var ls []lists.List
	for _, name := range []string{lists.MasterList, "second"} {
		l, err := lists.New(uuid.New(), acc.ID, name, now)
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
	}
	var vs []vendors.Vendor
	for _, name := range []string{"Slack", "Zoom", "Figma"} {
		v, err := vendors.New(uuid.New(), name, "", now)
		if err != nil {
			t.Fatal(err)
		}
		vs = append(vs, v)
	}
	write(t, s, func(ctx context.Context, tx stores.Tx) error {
		if err := tx.Accounts().Create(ctx, acc); err != nil {
			return err
		}
		for _, l := range ls {
			if err := tx.Lists().Create(ctx, l); err != nil {
				return err
			}
		}
		_, err := tx.Vendors().Ensure(ctx, vs)
		return err
	})
	raw := rawDB(t, path)
	for _, stmt := range []string{"DROP TRIGGER account_vendors_entry_insert", "DROP TRIGGER account_vendors_entry_delete",
		"DROP TRIGGER account_vendors_entry_alerts", "DROP TRIGGER account_vendors_list_delete", "DROP TABLE account_vendors"} {
		if _, err := raw.Exec(stmt); err != nil {
			t.Fatal(err)
		}
	}
	// Written before: Slack and Zoom on master-list, Zoom on second too
	// with alerts off there, Figma on second with alerts off.
	write(t, s, func(ctx context.Context, tx stores.Tx) error {
		if err := tx.Lists().AddEntries(ctx, ls[0].ID, []uuid.UUID{vs[0].ID, vs[1].ID}, now); err != nil {
			return err
		}
		if err := tx.Lists().AddEntries(ctx, ls[1].ID, []uuid.UUID{vs[1].ID, vs[2].ID}, now); err != nil {
			return err
		}
		if err := tx.Lists().SetAlerts(ctx, ls[1].ID, vs[1].ID, false); err != nil {
			return err
		}
		return tx.Lists().SetAlerts(ctx, ls[1].ID, vs[2].ID, false)
	})
	migration, err := os.ReadFile("migrations/sqlite/20261215000000_account_vendors.tx.up.sql")
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := raw.Exec(string(migration)); err != nil {
			t.Fatal(err)
		}
	}
	counts := func(what string, want lists.ListCounts) {
		t.Helper()
		var got lists.ListCounts
		if err := s.View(ctx, func(ctx context.Context, tx stores.Tx) (err error) {
			got, err = tx.Assessments().Counts(ctx, lists.ListScope{AccountID: acc.ID}, nil)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("%s: counts %+v, want %+v", what, got, want)
		}
	}
	counts("after the migration", lists.ListCounts{Vendors: 3, Followed: 2})
	write(t, s, func(ctx context.Context, tx stores.Tx) error { return tx.Lists().Delete(ctx, acc.ID, ls[1].ID) })
	counts("after the second list went", lists.ListCounts{Vendors: 2, Followed: 2})
}
