package memory

import (
	"cmp"
	"context"
	"slices"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/directory"
	"github.com/vetted-dev/vetted/core/vendorlist"
	"github.com/vetted-dev/vetted/ports"
)

func (r lists) EntriesAfter(ctx context.Context, listID uuid.UUID, after ports.EntryKey, limit int) ([]vendorlist.Entry, error) {
	all, err := r.Entries(ctx, listID)
	if err != nil {
		return nil, err
	}
	start := 0
	if after.VendorID != uuid.Nil {
		start, _ = slices.BinarySearchFunc(all, after, func(e vendorlist.Entry, k ports.EntryKey) int {
			c := cmp.Or(byVendorName(directory.Name(e.VendorName), directory.Name(k.VendorName)), slices.Compare(e.VendorID[:], k.VendorID[:]))
			if c == 0 {
				return -1 // the key itself is before the page
			}
			return c
		})
	}
	end := min(len(all), start+max(limit, 1))
	return slices.Clone(all[start:end]), nil
}

func (r lists) EntryKeys(ctx context.Context, listID uuid.UUID) ([]ports.EntryKey, error) {
	all, err := r.Entries(ctx, listID)
	if err != nil {
		return nil, err
	}
	out := make([]ports.EntryKey, len(all))
	for i, e := range all {
		out[i] = ports.EntryKey{VendorName: e.VendorName, VendorID: e.VendorID}
	}
	return out, nil
}

func (r lists) EntriesOf(ctx context.Context, listID uuid.UUID, vendorIDs []uuid.UUID) ([]vendorlist.Entry, error) {
	all, err := r.Entries(ctx, listID)
	if err != nil {
		return nil, err
	}
	want := make(map[uuid.UUID]bool, len(vendorIDs))
	for _, id := range vendorIDs {
		want[id] = true
	}
	return slices.DeleteFunc(all, func(e vendorlist.Entry) bool { return !want[e.VendorID] }), nil
}
