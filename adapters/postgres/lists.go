package postgres

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/vetted-dev/vetted/adapters/internal/bunrepo"
	"github.com/vetted-dev/vetted/adapters/internal/dbrow"
	"github.com/vetted-dev/vetted/core/vendorlist"
)

// listRepo reads lists and products; the entries of a list are shared.
type listRepo struct{ bunrepo.Lists }

// vendorCount is the computed column behind List.VendorCount.
const vendorCount = "(SELECT count(*) FROM list_entries AS e WHERE e.list_id = l.id) AS vendor_count"

func (r listRepo) selectLists(rows *[]dbrow.List) *bun.SelectQuery {
	return r.DB.NewSelect().Model(rows).ColumnExpr("l.*").ColumnExpr(vendorCount)
}

func (r listRepo) one(ctx context.Context, what string, q *bun.SelectQuery, rows *[]dbrow.List) (vendorlist.List, error) {
	if err := q.Limit(1).Scan(ctx); err != nil {
		return vendorlist.List{}, translate(err, "list %s", what)
	}
	if len(*rows) == 0 {
		return vendorlist.List{}, notFound("list %s", what)
	}
	return (*rows)[0].Core(), nil
}

func (r listRepo) Create(ctx context.Context, l vendorlist.List) error {
	row := dbrow.FromList(l)
	_, err := r.DB.NewInsert().Model(&row).Exec(ctx)
	return translate(err, "create list %q", l.Name)
}

func (r listRepo) Get(ctx context.Context, accountID, id uuid.UUID) (vendorlist.List, error) {
	var rows []dbrow.List
	return r.one(ctx, id.String(), r.selectLists(&rows).Where("l.id = ? AND l.account_id = ?", id, accountID), &rows)
}

func (r listRepo) GetByName(ctx context.Context, accountID uuid.UUID, name string) (vendorlist.List, error) {
	var rows []dbrow.List
	return r.one(ctx, "named "+name, r.selectLists(&rows).Where("l.account_id = ? AND l.name = ?", accountID, name), &rows)
}

func (r listRepo) ListByAccount(ctx context.Context, accountID uuid.UUID) ([]vendorlist.List, error) {
	var rows []dbrow.List
	if err := r.selectLists(&rows).Where("l.account_id = ?", accountID).OrderExpr("l.name" + collateC + ", l.id").Scan(ctx); err != nil {
		return nil, translate(err, "lists of account %s", accountID)
	}
	return dbrow.Map(rows, dbrow.List.Core), nil
}

// Entries reads a list in two statements: the entries with their vendors
// and profiles, then all product rows of the list.
func (r listRepo) Entries(ctx context.Context, listID uuid.UUID) ([]vendorlist.Entry, error) {
	var views []dbrow.EntryView
	err := r.DB.NewSelect().
		TableExpr("list_entries AS e").
		ColumnExpr("e.list_id, e.vendor_id, e.alerts_enabled, e.added_at").
		ColumnExpr("v.name AS vendor_name, v.website_url").
		ColumnExpr("p.id IS NOT NULL AS has_profile, p.enrichment").
		Join("JOIN vendors AS v ON v.id = e.vendor_id").
		Join("LEFT JOIN profiles AS p ON p.vendor_id = e.vendor_id").
		Where("e.list_id = ?", listID).
		OrderExpr("v.name"+collateC+", e.vendor_id").
		Scan(ctx, &views)
	if err != nil {
		return nil, translate(err, "entries of list %s", listID)
	}
	var prows []dbrow.Product
	if err := r.DB.NewSelect().Model(&prows).Where("pr.list_id = ?", listID).
		OrderExpr("pr.created_at, pr.name" + collateC + ", pr.id").Scan(ctx); err != nil {
		return nil, translate(err, "products of list %s", listID)
	}
	byVendor := make(map[uuid.UUID][]vendorlist.Product)
	for _, p := range prows {
		byVendor[p.VendorID] = append(byVendor[p.VendorID], p.Core())
	}
	out := make([]vendorlist.Entry, 0, len(views))
	for _, v := range views {
		out = append(out, v.Core(byVendor[v.VendorID]))
	}
	return out, nil
}

func (r listRepo) AddProduct(ctx context.Context, p vendorlist.Product) error {
	row := dbrow.FromProduct(p)
	_, err := r.DB.NewInsert().Model(&row).Exec(ctx)
	return translate(err, "add product %q of vendor %s to list %s", p.Name, p.VendorID, p.ListID)
}

func (r listRepo) MergeProducts(ctx context.Context, ps []vendorlist.Product) (int, error) {
	if len(ps) == 0 {
		return 0, nil
	}
	rows := make([]dbrow.Product, 0, len(ps))
	for _, p := range ps {
		rows = append(rows, dbrow.FromProduct(p))
	}
	return r.InsertNew(ctx, &rows, "merge products")
}
