package lists_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/lists"
)

func TestSaveVendorsReplacesTheMembership(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s, a, ref := f.s, f.a, f.ref
	ctx := context.Background()
	res, err := s.SaveVendors(ctx, a, ref, lists.ListRef{}, append(named(t, "Zoom"), namedSite(t, "Acme", "https://acme.test")))
	if err != nil || len(res.Added) != 2 || res.List.Name != lists.MasterList || res.Quota.Queued != 2 || f.dir.runs() != 1 {
		t.Fatalf("first save: %+v, %v (runs %d)", res, err, f.dir.runs())
	}
	res, err = s.SaveVendors(ctx, a, ref, lists.MasterRef, named(t, "acme", "Beta"))
	if err != nil || len(res.Added) != 1 || len(res.Removed) != 1 || res.Removed[0].Name != "Zoom" || res.Unchanged != 1 || res.List.VendorCount != 2 {
		t.Fatalf("second save: %+v, %v", res, err)
	}
	if _, err := s.SaveVendors(ctx, accounts.Actor{UserID: uuid.New()}, ref, lists.ListRef{}, nil); !errors.Is(err, core.ErrForbidden) {
		t.Fatalf("an outsider: %v", err)
	}
}

func TestListsProductsAndAlerts(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s, a, ref := f.s, f.a, f.ref
	ctx := context.Background()
	l, err := s.CreateList(ctx, a, ref, "Critical")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateList(ctx, a, ref, "Critical"); !errors.Is(err, core.ErrConflict) {
		t.Fatalf("a duplicate name: %v", err)
	}
	if ls, err := s.Lists(ctx, a, ref); err != nil || len(ls) != 2 {
		t.Fatalf("lists: %v, %v", ls, err)
	}
	res, err := s.SaveVendors(ctx, a, ref, lists.ListRef{ID: l.ID}, named(t, "Acme"))
	if err != nil {
		t.Fatal(err)
	}
	acme := res.Added[0].ID
	if _, err := s.AddProduct(ctx, a, ref, l.ID, acme, "Chat"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddProduct(ctx, a, ref, l.ID, acme, "chat"); !errors.Is(err, core.ErrConflict) {
		t.Fatalf("a duplicate product: %v", err)
	}
	if _, err := s.AddProduct(ctx, a, ref, l.ID, uuid.New(), "Chat"); !errors.Is(err, core.ErrNotFound) {
		t.Fatalf("a product of a vendor not on the list: %v", err)
	}
	e, err := s.SetAlerts(ctx, a, ref, lists.ListRef{Name: "Critical"}, acme, false)
	if err != nil || e.AlertsEnabled || e.VendorID != acme {
		t.Fatalf("alerts off: %+v, %v", e, err)
	}
	if _, err := s.SetAlerts(ctx, a, ref, lists.ListRef{ID: l.ID}, uuid.New(), true); !errors.Is(err, core.ErrNotFound) {
		t.Fatalf("alerts of a vendor not on the list: %v", err)
	}
	if got, es, err := s.ListWithVendors(ctx, a, ref, lists.ListRef{ID: l.ID}); err != nil || got.ID != l.ID || len(es) != 1 || len(es[0].Products) != 1 {
		t.Fatalf("list with vendors: %+v %v", es, err)
	}
	if _, err := s.DeleteList(ctx, a, ref, lists.MasterRef); !errors.Is(err, core.ErrInvalid) {
		t.Fatalf("master-list deleted: %v", err)
	}
	if _, err := s.DeleteList(ctx, a, ref, lists.ListRef{ID: l.ID}); err != nil {
		t.Fatalf("delete: %v", err)
	}
	if ls, err := s.Lists(ctx, a, ref); err != nil || len(ls) != 1 || ls[0].ID != f.master.ID {
		t.Fatalf("after the delete: %+v, %v", ls, err)
	}
}
