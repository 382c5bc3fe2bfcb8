package sqlstore

import (
	"context"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/attestations"
)

// attestationRepo is attestations.AttestationRepo; its SQL is the same in
// both dialects.
type attestationRepo struct{ base }

// owner is the condition on column that keeps the records of an account,
// or the directory's when accountID is uuid.Nil.
func owner(column string, accountID uuid.UUID) (string, []any) {
	if accountID == uuid.Nil {
		return column + " IS NULL", nil
	}
	return column + " = ?", []any{accountID}
}

// Create inserts a record.
func (r attestationRepo) Create(ctx context.Context, a attestations.Attestation) error {
	row := fromAttestation(a)
	_, err := r.DB.NewInsert().Model(&row).Exec(ctx)
	return r.Translate(err, "create attestation %s", a.ID)
}

// Get returns a record of the account or the directory.
func (r attestationRepo) Get(ctx context.Context, accountID, id uuid.UUID) (attestations.Attestation, error) {
	var row attestationRow
	cond, args := owner("at.account_id", accountID)
	err := r.DB.NewSelect().Model(&row).Where("at.id = ?", id).Where(cond, args...).Scan(ctx)
	if err != nil {
		return attestations.Attestation{}, r.Translate(err, "attestation %s", id)
	}
	return row.Core(), nil
}

// ForVendor returns the account's and the directory's records on a vendor.
func (r attestationRepo) ForVendor(ctx context.Context, accountID, vendorID uuid.UUID) ([]attestations.Attestation, error) {
	var rows []attestationRow
	q := r.DB.NewSelect().Model(&rows).Where("at.vendor_id = ?", vendorID)
	if accountID == uuid.Nil {
		q = q.Where("at.account_id IS NULL")
	} else {
		q = q.Where("(at.account_id = ? OR at.account_id IS NULL)", accountID)
	}
	if err := q.OrderExpr("at.created_at, at.id").Scan(ctx); err != nil {
		return nil, r.Translate(err, "attestations of vendor %s", vendorID)
	}
	return mapRows(rows, attestationRow.Core), nil
}

// Delete removes a record of the account or the directory.
func (r attestationRepo) Delete(ctx context.Context, accountID, id uuid.UUID) error {
	cond, args := owner("account_id", accountID)
	res, err := r.DB.NewDelete().Model((*attestationRow)(nil)).Where("id = ?", id).Where(cond, args...).Exec(ctx)
	if err != nil {
		return r.Translate(err, "delete attestation %s", id)
	}
	return r.MustAffect(res, "delete attestation %s", id)
}

// ListByAccount returns every record of an account.
func (r attestationRepo) ListByAccount(ctx context.Context, accountID uuid.UUID) ([]attestations.Attestation, error) {
	var rows []attestationRow
	err := r.DB.NewSelect().Model(&rows).Where("at.account_id = ?", accountID).OrderExpr("at.created_at, at.id").Scan(ctx)
	if err != nil {
		return nil, r.Translate(err, "attestations of account %s", accountID)
	}
	return mapRows(rows, attestationRow.Core), nil
}

// OnAccountLists reports whether the vendor is on a list of the account.
func (r attestationRepo) OnAccountLists(ctx context.Context, accountID, vendorID uuid.UUID) (bool, error) {
	ok, err := r.DB.NewSelect().TableExpr("list_entries AS le").Join("JOIN lists AS l ON l.id = le.list_id").
		Where("l.account_id = ? AND le.vendor_id = ?", accountID, vendorID).Exists(ctx)
	if err != nil {
		return false, r.Translate(err, "vendor %s on the lists of %s", vendorID, accountID)
	}
	return ok, nil
}
