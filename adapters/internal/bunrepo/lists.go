package bunrepo

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/vetted-dev/vetted/adapters/internal/dbrow"
)

// Lists holds the methods of ports.ListRepo whose SQL is the same in both
// stores: deleting a list and the entries of a list. Each store adds the
// rest (lists and products carry case-folded names in their own words).
type Lists struct{ Base }

// Delete removes a list of the account.
func (r Lists) Delete(ctx context.Context, accountID, id uuid.UUID) error {
	// Entries, products, assessments (with their events and documents) and
	// subscribers go with it by ON DELETE CASCADE.
	res, err := r.DB.NewDelete().Model((*dbrow.List)(nil)).Where("id = ? AND account_id = ?", id, accountID).Exec(ctx)
	if err != nil {
		return r.Translate(err, "delete list %s", id)
	}
	return r.MustAffect(res, "delete list %s", id)
}

// VendorIDs returns the ids of the vendors on a list, oldest entry first.
func (r Lists) VendorIDs(ctx context.Context, listID uuid.UUID) ([]uuid.UUID, error) {
	ids := []uuid.UUID{}
	err := r.DB.NewSelect().Table("list_entries").Column("vendor_id").Where("list_id = ?", listID).
		OrderExpr("added_at, vendor_id").Scan(ctx, &ids)
	if err != nil {
		return nil, r.Translate(err, "vendors of list %s", listID)
	}
	return ids, nil
}

// AddEntries puts vendors on a list in one statement; vendors already on it
// keep their entry.
func (r Lists) AddEntries(ctx context.Context, listID uuid.UUID, vendorIDs []uuid.UUID, now time.Time) error {
	if len(vendorIDs) == 0 {
		return nil
	}
	rows := make([]dbrow.Entry, 0, len(vendorIDs))
	for _, id := range vendorIDs {
		rows = append(rows, dbrow.Entry{ListID: listID, VendorID: id, AlertsEnabled: true, AddedAt: now})
	}
	_, err := r.DB.NewInsert().Model(&rows).On("CONFLICT (list_id, vendor_id) DO NOTHING").Exec(ctx)
	return r.Translate(err, "add vendors to list %s", listID)
}

// RemoveEntries takes vendors off a list in one statement.
func (r Lists) RemoveEntries(ctx context.Context, listID uuid.UUID, vendorIDs []uuid.UUID) error {
	if len(vendorIDs) == 0 {
		return nil
	}
	// Products go with their entries by ON DELETE CASCADE.
	_, err := r.DB.NewDelete().Model((*dbrow.Entry)(nil)).
		Where("list_id = ?", listID).Where("vendor_id IN (?)", bun.List(vendorIDs)).Exec(ctx)
	return r.Translate(err, "remove vendors from list %s", listID)
}

// SetAlerts sets alerts_enabled of a vendor on a list.
func (r Lists) SetAlerts(ctx context.Context, listID, vendorID uuid.UUID, enabled bool) error {
	res, err := r.DB.NewUpdate().Model((*dbrow.Entry)(nil)).Set("alerts_enabled = ?", enabled).
		Where("list_id = ? AND vendor_id = ?", listID, vendorID).Exec(ctx)
	if err != nil {
		return r.Translate(err, "set alerts of vendor %s on list %s", vendorID, listID)
	}
	return r.MustAffect(res, "vendor %s on list %s", vendorID, listID)
}

// InsertNew inserts the rows of model (a pointer to a slice of rows) that
// collide with no unique key, in one statement, and says how many it
// inserted. Rows repeating one another are skipped like existing rows: DO
// NOTHING checks each row against those inserted before it.
func (b Base) InsertNew(ctx context.Context, model any, format string, args ...any) (int, error) {
	res, err := b.DB.NewInsert().Model(model).On("CONFLICT DO NOTHING").Exec(ctx)
	if err != nil {
		return 0, b.Translate(err, format, args...)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, b.Translate(err, format, args...)
	}
	return int(n), nil
}
