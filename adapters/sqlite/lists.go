package sqlite

import (
	"context"
	"strings"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/adapters/internal/bunrepo"
	"github.com/vetted-dev/vetted/adapters/internal/dbrow"
	"github.com/vetted-dev/vetted/core/vendorlist"
)

// listRepo creates lists and products with their Go-folded name keys and
// finds lists by name; the other reads and the entries are shared.
type listRepo struct{ bunrepo.Lists }

func (r listRepo) Create(ctx context.Context, l vendorlist.List) error {
	row := fromList(l)
	_, err := r.DB.NewInsert().Model(&row).Exec(ctx)
	return translate(err, "create list %q", l.Name)
}

// GetByName finds the list by its key (the unique index) and then the exact
// name: names are unique case-insensitively but looked up exactly.
func (r listRepo) GetByName(ctx context.Context, accountID uuid.UUID, name string) (vendorlist.List, error) {
	var rows []dbrow.List
	q := r.SelectLists(&rows).Where("l.account_id = ? AND l.name_key = ? AND l.name = ?", accountID, strings.ToLower(name), name)
	return r.One(ctx, "named "+name, q, &rows)
}

func (r listRepo) AddProduct(ctx context.Context, p vendorlist.Product) error {
	row := fromProduct(p)
	return r.AddProductRow(ctx, p, &row)
}

func (r listRepo) MergeProducts(ctx context.Context, ps []vendorlist.Product) (int, error) {
	rows := make([]productRow, 0, len(ps))
	for _, p := range ps {
		rows = append(rows, fromProduct(p))
	}
	return r.MergeProductRows(ctx, ps, &rows)
}

// LockEntries needs no SQL: the one writer connection runs the units of
// work that write one at a time (BEGIN IMMEDIATE).
func (r listRepo) LockEntries(context.Context, uuid.UUID, []uuid.UUID) error { return nil }
