package lists

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/vetted-dev/vetted/core"
)

func onLists(t *testing.T, d *listDB) []string {
	t.Helper()
	var out []string
	for _, l := range d.lists {
		for _, v := range d.entries[l.ID] {
			out = append(out, d.vendors[v].Name.String())
		}
	}
	slices.Sort(out)
	return out
}

func TestAddAndRemoveVendorsTouchOnlyTheVendorsNamed(t *testing.T) {
	t.Parallel()
	s, d, dir, a, ref := listFixture(t)
	ctx := context.Background()
	if _, err := s.SaveVendors(ctx, a, ref, ListRef{}, named(t, "Alphawave")); err != nil {
		t.Fatal(err)
	}
	add := VendorsChange{Change: Add, Vendors: named(t, "Betamax", "alphawave")}
	res, err := s.ChangeVendors(ctx, a, ref, ListRef{}, add)
	if err != nil || len(res.Added) != 1 || res.Added[0].Name != "Betamax" || len(res.Removed) != 0 || res.Unchanged != 1 ||
		len(res.AlreadyOn) != 1 || res.AlreadyOn[0].Name != "Alphawave" || res.Quota.Queued != 1 || dir.runs != 2 {
		t.Fatalf("add: %+v, %v (runs %d)", res, err, dir.runs)
	}
	if got := onLists(t, d); !slices.Equal(got, []string{"Alphawave", "Betamax"}) {
		t.Fatalf("after the add: %v", got)
	}
	rm := VendorsChange{Change: Remove, Vendors: named(t, "ALPHAWAVE Inc", "Nowhere")}
	res, err = s.ChangeVendors(ctx, a, ref, ListRef{}, rm)
	if err != nil || len(res.Removed) != 1 || res.Removed[0].Name != "Alphawave" || len(res.Added) != 0 || res.Unchanged != 1 ||
		!slices.Equal(res.NotOn, []string{"Nowhere"}) {
		t.Fatalf("remove: %+v, %v", res, err)
	}
	if got := onLists(t, d); !slices.Equal(got, []string{"Betamax"}) {
		t.Fatalf("after the remove: %v", got)
	}
	if len(d.vendors) != 2 {
		t.Fatalf("a remove created a directory entry: %v", d.vendors)
	}
}

func TestChangeVendorsRefusesAStaleRevision(t *testing.T) {
	t.Parallel()
	s, d, _, a, ref := listFixture(t)
	ctx := context.Background()
	res, err := s.SaveVendors(ctx, a, ref, ListRef{}, named(t, "Alphawave"))
	if err != nil {
		t.Fatal(err)
	}
	read := res.List.Revision()
	l := d.lists[res.List.ID]
	l.Version++ // someone else changed the list since it was read
	d.lists[l.ID] = l
	stale := VendorsChange{Change: Replace, Vendors: named(t, "Betamax"),
		IfMatch: Precondition{Revisions: []string{read}}}
	if _, err := s.ChangeVendors(ctx, a, ref, ListRef{}, stale); !errors.Is(err, core.ErrPrecondition) {
		t.Fatalf("a stale If-Match: %v", err)
	}
	if got := onLists(t, d); !slices.Equal(got, []string{"Alphawave"}) {
		t.Fatalf("a refused save changed the list: %v", got)
	}
	stale.IfMatch.Revisions = []string{l.Revision()}
	if _, err := s.ChangeVendors(ctx, a, ref, ListRef{}, stale); err != nil {
		t.Fatalf("the current revision: %v", err)
	}
	if got := onLists(t, d); !slices.Equal(got, []string{"Betamax"}) {
		t.Fatalf("after the save: %v", got)
	}
}
