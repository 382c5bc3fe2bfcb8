package sqlstore

import (
	"context"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/contracts"
)

// contractRepo is contracts.ContractRepo; its SQL is the same in both
// dialects.
type contractRepo struct{ base }

// Create inserts a contract.
func (r contractRepo) Create(ctx context.Context, c contracts.Contract) error {
	row := fromContract(c)
	_, err := r.DB.NewInsert().Model(&row).Exec(ctx)
	return r.Translate(err, "create contract %s", c.ID)
}

// Get returns a contract of the account.
func (r contractRepo) Get(ctx context.Context, accountID, id uuid.UUID) (contracts.Contract, error) {
	var row contractRow
	err := r.DB.NewSelect().Model(&row).Where("ct.id = ? AND ct.account_id = ?", id, accountID).Scan(ctx)
	if err != nil {
		return contracts.Contract{}, r.Translate(err, "contract %s", id)
	}
	return row.Core(), nil
}

// List returns the account's contracts (of one vendor when vendorID is
// set) by end date, creation and id.
func (r contractRepo) List(ctx context.Context, accountID, vendorID uuid.UUID) ([]contracts.Contract, error) {
	var rows []contractRow
	q := r.DB.NewSelect().Model(&rows).Where("ct.account_id = ?", accountID)
	if vendorID != uuid.Nil {
		q = q.Where("ct.vendor_id = ?", vendorID)
	}
	if err := q.OrderExpr("ct.end_date, ct.created_at, ct.id").Scan(ctx); err != nil {
		return nil, r.Translate(err, "list contracts of %s", accountID)
	}
	return mapRows(rows, contractRow.Core), nil
}

// Update replaces a contract's terms and updated_at.
func (r contractRepo) Update(ctx context.Context, c contracts.Contract) error {
	row := fromContract(c)
	res, err := r.DB.NewUpdate().Model(&row).ExcludeColumn("id", "account_id", "created_at").
		Where("id = ? AND account_id = ?", c.ID, c.AccountID).Exec(ctx)
	if err != nil {
		return r.Translate(err, "update contract %s", c.ID)
	}
	return r.MustAffect(res, "update contract %s", c.ID)
}

// Delete removes a contract of the account.
func (r contractRepo) Delete(ctx context.Context, accountID, id uuid.UUID) error {
	res, err := r.DB.NewDelete().Model((*contractRow)(nil)).Where("id = ? AND account_id = ?", id, accountID).Exec(ctx)
	if err != nil {
		return r.Translate(err, "delete contract %s", id)
	}
	return r.MustAffect(res, "delete contract %s", id)
}
