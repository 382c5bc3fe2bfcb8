package postgres

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/vetted-dev/vetted/adapters/internal/dbrow"
	"github.com/vetted-dev/vetted/core/account"
)

// Sorting: "by name" means byte order, as Go's sort.Strings, whatever the
// database's collation.
const collateC = ` COLLATE "C"`

// byName sorts a text column by name.
func byName(column string) string { return column + collateC }

type accountRepo struct {
	db       bun.IDB
	readOnly bool
}

func (r accountRepo) Create(ctx context.Context, a account.Account) error {
	row := dbrow.FromAccount(a)
	_, err := r.db.NewInsert().Model(&row).Exec(ctx)
	return translate(err, "create account %q", a.Name)
}

func (r accountRepo) Get(ctx context.Context, id uuid.UUID) (account.Account, error) {
	var row dbrow.Account
	if err := r.db.NewSelect().Model(&row).Where("a.id = ?", id).Scan(ctx); err != nil {
		return account.Account{}, translate(err, "account %s", id)
	}
	return row.Core(), nil
}

func (r accountRepo) Lock(ctx context.Context, id uuid.UUID) error {
	var got uuid.UUID
	q := r.db.NewSelect().Table("accounts").Column("id").Where("id = ?", id)
	if !r.readOnly {
		// NO KEY UPDATE excludes every other Lock of the account (and its
		// deletion) just as FOR UPDATE would, but not the KEY SHARE locks
		// that foreign-key checks take: writes that merely reference the
		// account (lists, assessments, subscribers) are not held up.
		q = q.For("NO KEY UPDATE")
	}
	err := q.Scan(ctx, &got)
	return translate(err, "lock account %s", id)
}

func (r accountRepo) ListOrganizations(ctx context.Context) ([]account.Account, error) {
	var rows []dbrow.Account
	if err := r.db.NewSelect().Model(&rows).Where("NOT a.personal").OrderExpr("a.name" + collateC + ", a.id").Scan(ctx); err != nil {
		return nil, translate(err, "list accounts")
	}
	return dbrow.Map(rows, dbrow.Account.Core), nil
}

func (r accountRepo) ListForUser(ctx context.Context, userID uuid.UUID) ([]account.Membership, error) {
	var rows []dbrow.Membership
	err := r.db.NewSelect().Model(&rows).
		ColumnExpr("a.*, m.role").
		Join("JOIN members AS m ON m.account_id = a.id").
		Where("m.user_id = ?", userID).Where("NOT a.personal").
		OrderExpr("a.name" + collateC + ", a.id").
		Scan(ctx)
	if err != nil {
		return nil, translate(err, "list accounts of user %s", userID)
	}
	return dbrow.MapErr(rows, dbrow.Membership.Core)
}

func (r accountRepo) Delete(ctx context.Context, id uuid.UUID) error {
	// Members, lists, entries, products, quota claims, assessments, audit
	// events, documents and subscribers go with it by ON DELETE CASCADE.
	res, err := r.db.NewDelete().Model((*dbrow.Account)(nil)).Where("id = ?", id).Exec(ctx)
	if err != nil {
		return translate(err, "delete account %s", id)
	}
	return mustAffect(res, "delete account %s", id)
}
