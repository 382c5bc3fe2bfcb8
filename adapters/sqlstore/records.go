package sqlstore

import (
	"context"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/records"
)

// recordRepo is records.RecordRepo; its SQL is the same in both dialects.
type recordRepo struct{ base }

// Get returns the record of a vendor in an account, without its notes.
func (r recordRepo) Get(ctx context.Context, accountID, vendorID uuid.UUID) (records.Record, error) {
	var row recordRow
	err := r.DB.NewSelect().Model(&row).Where("vr.account_id = ? AND vr.vendor_id = ?", accountID, vendorID).Scan(ctx)
	if err != nil {
		return records.Record{}, r.Translate(err, "vendor record of %s in account %s", vendorID, accountID)
	}
	return row.Core(), nil
}

// Save inserts or replaces the record (ON CONFLICT DO UPDATE).
func (r recordRepo) Save(ctx context.Context, rec records.Record) error {
	row := fromRecord(rec)
	_, err := r.DB.NewInsert().Model(&row).
		On("CONFLICT (account_id, vendor_id) DO UPDATE").
		Set("business_owner = EXCLUDED.business_owner").
		Set("contacts = EXCLUDED.contacts").
		Set("links = EXCLUDED.links").
		Set("updated_at = EXCLUDED.updated_at").
		Set("updated_by = EXCLUDED.updated_by").
		Exec(ctx)
	return r.Translate(err, "save vendor record of %s in account %s", rec.VendorID, rec.AccountID)
}

// Notes returns the notes of a record, oldest first.
func (r recordRepo) Notes(ctx context.Context, accountID, vendorID uuid.UUID) ([]records.Note, error) {
	var rows []noteRow
	err := r.DB.NewSelect().Model(&rows).Where("vn.account_id = ? AND vn.vendor_id = ?", accountID, vendorID).
		OrderExpr("vn.created_at, vn.id").Scan(ctx)
	if err != nil {
		return nil, r.Translate(err, "notes of vendor %s in account %s", vendorID, accountID)
	}
	return mapRows(rows, noteRow.Core), nil
}

// AddNote inserts a note; the foreign key to its record makes an unsaved
// record not found.
func (r recordRepo) AddNote(ctx context.Context, n records.Note) error {
	row := fromNote(n)
	_, err := r.DB.NewInsert().Model(&row).Exec(ctx)
	return r.Translate(err, "add note %s", n.ID)
}

// OnAccount reports whether the vendor is on a list of the account.
func (r recordRepo) OnAccount(ctx context.Context, accountID, vendorID uuid.UUID) (bool, error) {
	ok, err := r.DB.NewSelect().TableExpr("list_entries AS le").Join("JOIN lists AS l ON l.id = le.list_id").
		Where("l.account_id = ? AND le.vendor_id = ?", accountID, vendorID).Exists(ctx)
	if err != nil {
		return false, r.Translate(err, "vendor %s on the lists of account %s", vendorID, accountID)
	}
	return ok, nil
}
