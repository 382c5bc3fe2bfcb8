package lists_test

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/vendors"
)

// putVendors puts n vendors named prefix and a number on the list, adding
// those new to the directory.
func (f *fixture) putVendors(list uuid.UUID, prefix string, n int) {
	f.t.Helper()
	vs := make([]vendors.Vendor, n)
	for i := range vs {
		vs[i] = vendors.Vendor{ID: uuid.New(), Name: vendors.Name(fmt.Sprintf("%s %04d", prefix, i))}
	}
	f.write(func(ctx context.Context, tx lists.Tx) error {
		vs, err := tx.Vendors().Ensure(ctx, vs)
		if err != nil {
			return err
		}
		ids := make([]uuid.UUID, n)
		for i, v := range vs {
			ids[i] = v.ID
		}
		return tx.Lists().AddEntries(ctx, list, ids, fixedClock{}.Now())
	})
}

// remove takes the vendor named name off the list and returns its id.
func (f *fixture) remove(list uuid.UUID, name vendors.Name) (id uuid.UUID) {
	f.t.Helper()
	f.write(func(ctx context.Context, tx lists.Tx) error {
		v, err := tx.Vendors().GetByName(ctx, name)
		id = v.ID
		if err != nil {
			return err
		}
		return tx.Lists().RemoveEntries(ctx, list, []uuid.UUID{v.ID})
	})
	return id
}

// storeOrder is the order of entries in a list: by vendor name,
// case-insensitively, then byte by byte.
func storeOrder(a, b string) int {
	return cmp.Or(strings.Compare(strings.ToLower(a), strings.ToLower(b)), strings.Compare(a, b))
}

// TestWholeListReadsByPage: a list longer than a page is handed over a page
// at a time, each entry once and in the order of the first read, each page
// after the first read when the one before was handed over (a vendor
// removed meanwhile left out, one added meanwhile not shown); a list of one
// page is read by OpenList alone, a longer one by Each alone; a refusal
// comes from OpenList.
func TestWholeListReadsByPage(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s, a, ref := f.s, f.a, f.ref
	ctx := context.Background()
	master := f.master.ID
	n := 2*lists.WholeListPage + 3
	f.putVendors(master, "Vendor", n-1)
	f.putVendors(master, "acme", 1) // lower case: first in the stores' order, last in bytes

	w, err := s.OpenList(ctx, a, ref, lists.MasterRef)
	if err != nil {
		t.Fatal(err)
	}
	if pages, keys := f.reads.counts(); w.InOneRead() || w.List().ID != master || w.List().VendorCount != n || pages != 0 || keys != 0 {
		t.Fatalf("opened: one read %v, list %+v, %d page reads, %d key reads", w.InOneRead(), w.List(), pages, keys)
	}
	f.putVendors(master, "Vendor 0000 before", 1) // added before Each: read
	var got []lists.Entry
	var sizes []int
	var removed uuid.UUID
	err = w.Each(ctx, func(page []lists.Entry) error {
		if pages, keys := f.reads.counts(); pages != len(sizes)+1 || keys != 1 {
			t.Errorf("page %d handed over after %d page reads, %d key reads", len(sizes), pages, keys)
		}
		sizes = append(sizes, len(page))
		got = append(got, page...)
		if len(sizes) == 1 {
			f.putVendors(master, "Vendor 0000 again", 1) // added meanwhile
			removed = f.remove(master, "Vendor 1000")    // on the third page
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(sizes, []int{lists.WholeListPage, lists.WholeListPage, 3}) {
		t.Fatalf("page sizes %v", sizes)
	}
	seen := map[uuid.UUID]bool{}
	for i, e := range got {
		if seen[e.VendorID] || e.VendorID == removed {
			t.Fatalf("%s read twice, or after it was removed", e.VendorName)
		}
		seen[e.VendorID] = true
		if i > 0 && storeOrder(got[i-1].VendorName, e.VendorName) >= 0 {
			t.Fatalf("%q before %q", got[i-1].VendorName, e.VendorName)
		}
	}
	if got[0].VendorName != "acme 0000" || got[len(got)-2].VendorName != "Vendor 0999" || got[len(got)-1].VendorName != "Vendor 1001" {
		t.Fatalf("first %q, last two %q %q", got[0].VendorName, got[len(got)-2].VendorName, got[len(got)-1].VendorName)
	}

	// An error of page stops the read.
	w, err = s.OpenList(ctx, a, ref, lists.MasterRef)
	if err != nil {
		t.Fatal(err)
	}
	stop := errors.New("client gone")
	calls := 0
	if err := w.Each(ctx, func([]lists.Entry) error { calls++; return stop }); !errors.Is(err, stop) || calls != 1 {
		t.Fatalf("a failing page: %v after %d calls", err, calls)
	}

	// A list of one page, and an empty one: OpenList reads them whole, in
	// one read of entries.
	for _, size := range []int{lists.WholeListPage, 0} {
		l, err := s.CreateList(ctx, a, ref, fmt.Sprintf("List of %d", size))
		if err != nil {
			t.Fatal(err)
		}
		f.putVendors(l.ID, "Vendor", size)
		f.reads.reset()
		w, err := s.OpenList(ctx, a, ref, lists.ListRef{Name: l.Name})
		if err != nil {
			t.Fatal(err)
		}
		got = got[:0]
		calls := 0
		err = w.Each(ctx, func(page []lists.Entry) error { calls++; got = append(got, page...); return nil })
		pages, keys := f.reads.counts()
		if err != nil || !w.InOneRead() || pages != 1 || keys != 0 || len(got) != size || calls != min(size, 1) {
			t.Fatalf("a list of %d: %v, one read %v, %d page reads, %d key reads, %d entries in %d calls",
				size, err, w.InOneRead(), pages, keys, len(got), calls)
		}
	}

	// Refusals come from OpenList, before any entry.
	if _, err := s.OpenList(ctx, accounts.Actor{UserID: uuid.New()}, ref, lists.MasterRef); !errors.Is(err, core.ErrForbidden) {
		t.Fatalf("an outsider: %v", err)
	}
	if _, err := s.OpenList(ctx, a, ref, lists.ListRef{Name: "Nowhere"}); !errors.Is(err, core.ErrNotFound) {
		t.Fatalf("an unknown list: %v", err)
	}
}
