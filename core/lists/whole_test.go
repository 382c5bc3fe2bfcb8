package lists

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
	"github.com/vetted-dev/vetted/core/vendors"
)

// sortedEntries are the fake's entries by vendor name in byte order, then
// vendor id, as the stores order them.
func (r listRepo) sortedEntries(ctx context.Context, id uuid.UUID) []Entry {
	es, _ := r.Entries(ctx, id)
	slices.SortFunc(es, func(a, b Entry) int { return compareKeys(entryKey(a), entryKey(b)) })
	return es
}

func entryKey(e Entry) EntryKey {
	return EntryKey{VendorName: e.VendorName, VendorID: e.VendorID}
}

func compareKeys(a, b EntryKey) int {
	return cmp.Or(strings.Compare(a.VendorName, b.VendorName), slices.Compare(a.VendorID[:], b.VendorID[:]))
}

func (r listRepo) EntriesAfter(ctx context.Context, id uuid.UUID, after EntryKey, limit int) ([]Entry, error) {
	r.d.pageReads++
	es := r.sortedEntries(ctx, id)
	if after.VendorID != uuid.Nil {
		es = slices.DeleteFunc(es, func(e Entry) bool { return compareKeys(entryKey(e), after) <= 0 })
	}
	return es[:min(len(es), limit)], nil
}

func (r listRepo) EntryKeys(ctx context.Context, id uuid.UUID) ([]EntryKey, error) {
	r.d.keyReads++
	var out []EntryKey
	for _, e := range r.sortedEntries(ctx, id) {
		out = append(out, entryKey(e))
	}
	return out, nil
}

// putVendors puts n new vendors named prefix and a number on the list.
func putVendors(d *listDB, list uuid.UUID, prefix string, n int) {
	for i := range n {
		v := vendors.Vendor{ID: uuid.New(), Name: vendors.Name(fmt.Sprintf("%s %04d", prefix, i))}
		d.vendors[v.ID] = v
		d.entries[list] = append(d.entries[list], v.ID)
	}
}

// TestWholeListReadsByPage: a list longer than a page is handed over a page
// at a time, each entry once and in the order of the first read, each page
// after the first read when the one before was handed over (a vendor
// removed meanwhile left out, one added meanwhile not shown); a list of one
// page is read by OpenList alone, a longer one by Each alone; a refusal
// comes from OpenList.
func TestWholeListReadsByPage(t *testing.T) {
	t.Parallel()
	s, d, _, a, ref := listFixture(t)
	ctx := context.Background()
	var master uuid.UUID
	for id := range d.lists {
		master = id
	}
	n := 2*WholeListPage + 3
	putVendors(d, master, "Vendor", n-1)
	putVendors(d, master, "acme", 1) // lower case: after every "Vendor" in byte order

	w, err := s.OpenList(ctx, a, ref, MasterRef)
	if err != nil {
		t.Fatal(err)
	}
	if w.InOneRead() || w.List().ID != master || w.List().VendorCount != n || d.pageReads != 0 || d.keyReads != 0 {
		t.Fatalf("opened: one read %v, list %+v, %d page reads, %d key reads", w.InOneRead(), w.List(), d.pageReads, d.keyReads)
	}
	putVendors(d, master, "Vendor 0000 before", 1) // added before Each: read
	n++
	var got []Entry
	var sizes []int
	var removed uuid.UUID
	err = w.Each(ctx, func(page []Entry) error {
		if d.pageReads != len(sizes)+1 || d.keyReads != 1 {
			t.Errorf("page %d handed over after %d page reads, %d key reads", len(sizes), d.pageReads, d.keyReads)
		}
		sizes = append(sizes, len(page))
		got = append(got, page...)
		if len(sizes) == 1 {
			putVendors(d, master, "Vendor 0000 again", 1) // added meanwhile
			removed = d.entries[master][n-3]              // "Vendor 1001", on the third page
			d.entries[master] = slices.Delete(d.entries[master], n-3, n-2)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(sizes, []int{WholeListPage, WholeListPage, 3}) {
		t.Fatalf("page sizes %v", sizes)
	}
	seen := map[uuid.UUID]bool{}
	for i, e := range got {
		if seen[e.VendorID] || e.VendorID == removed {
			t.Fatalf("%s read twice, or after it was removed", e.VendorName)
		}
		seen[e.VendorID] = true
		if i > 0 && strings.Compare(got[i-1].VendorName, e.VendorName) >= 0 {
			t.Fatalf("%q before %q", got[i-1].VendorName, e.VendorName)
		}
	}
	if got[len(got)-2].VendorName != "Vendor 1000" || got[len(got)-1].VendorName != "acme 0000" {
		t.Fatalf("last two %q %q", got[len(got)-2].VendorName, got[len(got)-1].VendorName)
	}

	// An error of page stops the read.
	w, err = s.OpenList(ctx, a, ref, MasterRef)
	if err != nil {
		t.Fatal(err)
	}
	stop := errors.New("client gone")
	calls := 0
	if err := w.Each(ctx, func([]Entry) error { calls++; return stop }); !errors.Is(err, stop) || calls != 1 {
		t.Fatalf("a failing page: %v after %d calls", err, calls)
	}

	// A list of one page, and an empty one: OpenList reads them whole, in
	// one read of entries.
	for _, size := range []int{WholeListPage, 0} {
		l, err := s.CreateList(ctx, a, ref, fmt.Sprintf("List of %d", size))
		if err != nil {
			t.Fatal(err)
		}
		putVendors(d, l.ID, "Vendor", size)
		d.pageReads, d.keyReads = 0, 0
		w, err := s.OpenList(ctx, a, ref, ListRef{Name: l.Name})
		if err != nil {
			t.Fatal(err)
		}
		got = got[:0]
		calls := 0
		err = w.Each(ctx, func(page []Entry) error { calls++; got = append(got, page...); return nil })
		if err != nil || !w.InOneRead() || d.pageReads != 1 || d.keyReads != 0 || len(got) != size || calls != min(size, 1) {
			t.Fatalf("a list of %d: %v, one read %v, %d page reads, %d key reads, %d entries in %d calls",
				size, err, w.InOneRead(), d.pageReads, d.keyReads, len(got), calls)
		}
	}

	// Refusals come from OpenList, before any entry.
	if _, err := s.OpenList(ctx, accounts.Actor{UserID: uuid.New()}, ref, MasterRef); !errors.Is(err, core.ErrForbidden) {
		t.Fatalf("an outsider: %v", err)
	}
	if _, err := s.OpenList(ctx, a, ref, ListRef{Name: "Nowhere"}); !errors.Is(err, core.ErrNotFound) {
		t.Fatalf("an unknown list: %v", err)
	}
}
