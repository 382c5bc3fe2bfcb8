package bunrepo

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/vetted-dev/vetted/adapters/internal/dbrow"
	"github.com/vetted-dev/vetted/core/vendorlist"
	"github.com/vetted-dev/vetted/ports"
)

// EntriesAfter returns at most limit entries of a list after the key, in
// the order of Entries (vendor name in byte order, then vendor id): a
// keyset page, with the products of those vendors only.
func (r Lists) EntriesAfter(ctx context.Context, listID uuid.UUID, after ports.EntryKey, limit int) ([]vendorlist.Entry, error) {
	var views []dbrow.EntryView
	q := r.DB.NewSelect().
		TableExpr("list_entries AS e").
		ColumnExpr("e.list_id, e.vendor_id, e.alerts_enabled, e.added_at").
		ColumnExpr("v.name AS vendor_name, v.website_url").
		ColumnExpr("p.id IS NOT NULL AS has_profile").
		ColumnExpr(r.StatusesOf("p.enrichment")+" AS statuses").
		Join("JOIN vendors AS v ON v.id = e.vendor_id").
		Join("LEFT JOIN profiles AS p ON p.vendor_id = e.vendor_id").
		Where("e.list_id = ?", listID)
	if after.VendorID != uuid.Nil {
		name := r.ByName("v.name")
		q = q.Where("("+name+" > ? OR ("+name+" = ? AND e.vendor_id > ?))", after.VendorName, after.VendorName, after.VendorID)
	}
	if err := q.OrderExpr(r.ByName("v.name")+", e.vendor_id").Limit(int64(max(limit, 1))).Scan(ctx, &views); err != nil {
		return nil, r.Translate(err, "page of list %s", listID)
	}
	out := make([]vendorlist.Entry, 0, len(views))
	if len(views) == 0 {
		return out, nil
	}
	ids := make([]uuid.UUID, len(views))
	for i, v := range views {
		ids[i] = v.VendorID
	}
	var prows []dbrow.Product
	if err := r.DB.NewSelect().Model(&prows).Where("pr.list_id = ?", listID).Where("pr.vendor_id IN (?)", bun.List(ids)).
		OrderExpr("pr.created_at, " + r.ByName("pr.name") + ", pr.id").Scan(ctx); err != nil {
		return nil, r.Translate(err, "products of a page of list %s", listID)
	}
	byVendor := make(map[uuid.UUID][]vendorlist.Product, len(views))
	for _, p := range prows {
		byVendor[p.VendorID] = append(byVendor[p.VendorID], p.Core())
	}
	for _, v := range views {
		out = append(out, v.Core(byVendor[v.VendorID]))
	}
	return out, nil
}
