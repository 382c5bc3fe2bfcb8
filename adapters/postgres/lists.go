package postgres

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/vetted-dev/vetted/adapters/internal/bunrepo"
	"github.com/vetted-dev/vetted/adapters/internal/dbrow"
	"github.com/vetted-dev/vetted/core/vendorlist"
)

// listRepo creates lists and products, unique by lower(name), and finds
// lists by exact name; the other reads and the entries are shared.
type listRepo struct{ bunrepo.Lists }

func (r listRepo) Create(ctx context.Context, l vendorlist.List) error {
	row := dbrow.FromList(l)
	_, err := r.DB.NewInsert().Model(&row).Exec(ctx)
	return translate(err, "create list %q", l.Name)
}

func (r listRepo) GetByName(ctx context.Context, accountID uuid.UUID, name string) (vendorlist.List, error) {
	var rows []dbrow.List
	return r.One(ctx, "named "+name, r.SelectLists(&rows).Where("l.account_id = ? AND l.name = ?", accountID, name), &rows)
}

func (r listRepo) AddProduct(ctx context.Context, p vendorlist.Product) error {
	row := dbrow.FromProduct(p)
	return r.AddProductRow(ctx, p, &row)
}

func (r listRepo) MergeProducts(ctx context.Context, ps []vendorlist.Product) (int, error) {
	rows := make([]dbrow.Product, 0, len(ps))
	for _, p := range ps {
		rows = append(rows, dbrow.FromProduct(p))
	}
	return r.MergeProductRows(ctx, ps, &rows)
}

// LockEntries locks the entries in vendor order, so two units of work that
// lock overlapping sets never wait on each other crosswise.
func (r listRepo) LockEntries(ctx context.Context, listID uuid.UUID, vendorIDs []uuid.UUID) error {
	if len(vendorIDs) == 0 {
		return nil
	}
	var locked []uuid.UUID
	err := r.DB.NewSelect().Table("list_entries").Column("vendor_id").
		Where("list_id = ?", listID).Where("vendor_id IN (?)", bun.List(vendorIDs)).
		OrderExpr("vendor_id").For("UPDATE").Scan(ctx, &locked)
	return translate(err, "lock vendors %v on list %s", vendorIDs, listID)
}
