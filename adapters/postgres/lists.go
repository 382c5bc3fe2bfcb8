package postgres

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/vetted-dev/vetted/adapters/internal/dbrow"
	"github.com/vetted-dev/vetted/core/vendorlist"
)

type listRepo struct{ db bun.IDB }

// vendorCount is the computed column behind List.VendorCount.
const vendorCount = "(SELECT count(*) FROM list_entries AS e WHERE e.list_id = l.id) AS vendor_count"

func (r listRepo) selectLists(rows *[]dbrow.List) *bun.SelectQuery {
	return r.db.NewSelect().Model(rows).ColumnExpr("l.*").ColumnExpr(vendorCount)
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
	_, err := r.db.NewInsert().Model(&row).Exec(ctx)
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

func (r listRepo) Delete(ctx context.Context, accountID, id uuid.UUID) error {
	// Entries, products, assessments (with their events and documents) and
	// subscribers go with it by ON DELETE CASCADE.
	res, err := r.db.NewDelete().Model((*dbrow.List)(nil)).Where("id = ? AND account_id = ?", id, accountID).Exec(ctx)
	if err != nil {
		return translate(err, "delete list %s", id)
	}
	return mustAffect(res, "delete list %s", id)
}

// Entries reads a list in two statements: the entries with their vendors
// and profiles, then all product rows of the list.
func (r listRepo) Entries(ctx context.Context, listID uuid.UUID) ([]vendorlist.Entry, error) {
	var views []dbrow.EntryView
	err := r.db.NewSelect().
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
	if err := r.db.NewSelect().Model(&prows).Where("pr.list_id = ?", listID).
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

func (r listRepo) VendorIDs(ctx context.Context, listID uuid.UUID) ([]uuid.UUID, error) {
	ids := []uuid.UUID{}
	err := r.db.NewSelect().Table("list_entries").Column("vendor_id").Where("list_id = ?", listID).
		OrderExpr("added_at, vendor_id").Scan(ctx, &ids)
	if err != nil {
		return nil, translate(err, "vendors of list %s", listID)
	}
	return ids, nil
}

func (r listRepo) AddEntries(ctx context.Context, listID uuid.UUID, vendorIDs []uuid.UUID, now time.Time) error {
	if len(vendorIDs) == 0 {
		return nil
	}
	rows := make([]dbrow.Entry, 0, len(vendorIDs))
	for _, id := range vendorIDs {
		rows = append(rows, dbrow.Entry{ListID: listID, VendorID: id, AlertsEnabled: true, AddedAt: now})
	}
	_, err := r.db.NewInsert().Model(&rows).On("CONFLICT (list_id, vendor_id) DO NOTHING").Exec(ctx)
	return translate(err, "add vendors to list %s", listID)
}

func (r listRepo) RemoveEntries(ctx context.Context, listID uuid.UUID, vendorIDs []uuid.UUID) error {
	if len(vendorIDs) == 0 {
		return nil
	}
	// Products go with their entries by ON DELETE CASCADE.
	_, err := r.db.NewDelete().Model((*dbrow.Entry)(nil)).
		Where("list_id = ?", listID).Where("vendor_id IN (?)", bun.In(vendorIDs)).Exec(ctx)
	return translate(err, "remove vendors from list %s", listID)
}

func (r listRepo) SetAlerts(ctx context.Context, listID, vendorID uuid.UUID, enabled bool) error {
	res, err := r.db.NewUpdate().Model((*dbrow.Entry)(nil)).Set("alerts_enabled = ?", enabled).
		Where("list_id = ? AND vendor_id = ?", listID, vendorID).Exec(ctx)
	if err != nil {
		return translate(err, "set alerts of vendor %s on list %s", vendorID, listID)
	}
	return mustAffect(res, "vendor %s on list %s", vendorID, listID)
}

func (r listRepo) AddProduct(ctx context.Context, p vendorlist.Product) error {
	row := dbrow.FromProduct(p)
	_, err := r.db.NewInsert().Model(&row).Exec(ctx)
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
	// Duplicates within ps are skipped like existing rows: DO NOTHING
	// checks each row against the ones inserted before it.
	res, err := r.db.NewInsert().Model(&rows).On("CONFLICT DO NOTHING").Exec(ctx)
	if err != nil {
		return 0, translate(err, "merge products")
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, translate(err, "merge products")
	}
	return int(n), nil
}
