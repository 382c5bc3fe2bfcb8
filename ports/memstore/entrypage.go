package memstore

import (
	"cmp"
	"context"
	"slices"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/vendors"
)

// EntriesAfter builds the entries of the page only: a list read a page at
// a time costs the sort of its ids per page, not the whole list's entries.
func (r listsRepo) EntriesAfter(_ context.Context, listID uuid.UUID, after lists.EntryKey, limit int) ([]lists.Entry, error) {
	if err := r.readable(); err != nil {
		return nil, err
	}
	ids := r.sortedEntries(listID)
	start := 0
	if after.VendorID != uuid.Nil {
		start, _ = slices.BinarySearchFunc(ids, after, func(id uuid.UUID, k lists.EntryKey) int {
			c := cmp.Or(byVendorName(r.d.vendors[id].Name, vendors.Name(k.VendorName)), slices.Compare(id[:], k.VendorID[:]))
			if c == 0 {
				return -1 // the key itself is before the page
			}
			return c
		})
	}
	end := min(len(ids), start+max(limit, 1))
	out := make([]lists.Entry, 0, end-start)
	for _, vid := range ids[start:end] {
		out = append(out, r.entry(listID, vid))
	}
	return out, nil
}

func (r listsRepo) EntryKeys(ctx context.Context, listID uuid.UUID) ([]lists.EntryKey, error) {
	all, err := r.Entries(ctx, listID)
	if err != nil {
		return nil, err
	}
	out := make([]lists.EntryKey, len(all))
	for i, e := range all {
		out[i] = lists.EntryKey{VendorName: e.VendorName, VendorID: e.VendorID}
	}
	return out, nil
}

// EntriesOf builds the entries of the given vendors only: a whole list
// read a page of ids at a time costs a page per read.
func (r listsRepo) EntriesOf(_ context.Context, listID uuid.UUID, vendorIDs []uuid.UUID) ([]lists.Entry, error) {
	if err := r.readable(); err != nil {
		return nil, err
	}
	out := make([]lists.Entry, 0, len(vendorIDs))
	seen := make(map[uuid.UUID]bool, len(vendorIDs))
	for _, vid := range vendorIDs {
		if _, on := r.d.entries[pair{listID, vid}]; on && !seen[vid] {
			seen[vid] = true
			out = append(out, r.entry(listID, vid))
		}
	}
	slices.SortFunc(out, func(a, b lists.Entry) int {
		return cmp.Or(byVendorName(vendors.Name(a.VendorName), vendors.Name(b.VendorName)), slices.Compare(a.VendorID[:], b.VendorID[:]))
	})
	return out, nil
}
