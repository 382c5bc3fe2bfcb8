package lists_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/vendors"
)

func TestAddAndRemoveVendorsTouchOnlyTheVendorsNamed(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s, a, ref := f.s, f.a, f.ref
	ctx := context.Background()
	if _, err := s.SaveVendors(ctx, a, ref, lists.ListRef{}, named(t, "Alphawave")); err != nil {
		t.Fatal(err)
	}
	add := lists.VendorsChange{Change: lists.Add, Vendors: named(t, "Betamax", "alphawave")}
	res, err := s.ChangeVendors(ctx, a, ref, lists.ListRef{}, add)
	if err != nil || len(res.Added) != 1 || res.Added[0].Name != "Betamax" || len(res.Removed) != 0 || res.Unchanged != 1 ||
		len(res.AlreadyOn) != 1 || res.AlreadyOn[0].Name != "Alphawave" || res.Quota.Queued != 1 || f.dir.runs() != 2 {
		t.Fatalf("add: %+v, %v (runs %d)", res, err, f.dir.runs())
	}
	if got := f.onLists(); !slices.Equal(got, []string{"Alphawave", "Betamax"}) {
		t.Fatalf("after the add: %v", got)
	}
	rm := lists.VendorsChange{Change: lists.Remove, Vendors: named(t, "ALPHAWAVE Inc", "Nowhere")}
	res, err = s.ChangeVendors(ctx, a, ref, lists.ListRef{}, rm)
	if err != nil || len(res.Removed) != 1 || res.Removed[0].Name != "Alphawave" || len(res.Added) != 0 || res.Unchanged != 1 ||
		!slices.Equal(res.NotOn, []string{"Nowhere"}) {
		t.Fatalf("remove: %+v, %v", res, err)
	}
	if got := f.onLists(); !slices.Equal(got, []string{"Betamax"}) {
		t.Fatalf("after the remove: %v", got)
	}
	var dir []vendors.Vendor
	f.read(func(ctx context.Context, tx lists.Tx) (err error) { dir, err = tx.Vendors().List(ctx); return err })
	if len(dir) != 2 {
		t.Fatalf("a remove created a directory entry: %v", dir)
	}
}

func TestChangeVendorsRefusesAStaleRevision(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s, a, ref := f.s, f.a, f.ref
	ctx := context.Background()
	res, err := s.SaveVendors(ctx, a, ref, lists.ListRef{}, named(t, "Alphawave"))
	if err != nil {
		t.Fatal(err)
	}
	read := res.List.Revision()
	// Someone else changes the list since it was read.
	var l lists.List
	f.write(func(ctx context.Context, tx lists.Tx) (err error) {
		if err := tx.Lists().SetAlerts(ctx, res.List.ID, res.Added[0].ID, false); err != nil {
			return err
		}
		l, err = tx.Lists().Get(ctx, f.ref.ID, res.List.ID)
		return err
	})
	if l.Revision() == read {
		t.Fatal("the change left the revision")
	}
	stale := lists.VendorsChange{Change: lists.Replace, Vendors: named(t, "Betamax"),
		IfMatch: lists.Precondition{Revisions: []string{read}}}
	if _, err := s.ChangeVendors(ctx, a, ref, lists.ListRef{}, stale); !errors.Is(err, core.ErrPrecondition) {
		t.Fatalf("a stale If-Match: %v", err)
	}
	if got := f.onLists(); !slices.Equal(got, []string{"Alphawave"}) {
		t.Fatalf("a refused save changed the list: %v", got)
	}
	stale.IfMatch.Revisions = []string{l.Revision()}
	if _, err := s.ChangeVendors(ctx, a, ref, lists.ListRef{}, stale); err != nil {
		t.Fatalf("the current revision: %v", err)
	}
	if got := f.onLists(); !slices.Equal(got, []string{"Betamax"}) {
		t.Fatalf("after the save: %v", got)
	}
}
