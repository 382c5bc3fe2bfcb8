package sqlite

import (
	"context"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/adapters/internal/bunrepo"
	"github.com/vetted-dev/vetted/core/accounts"
)

// accountRepo creates organizations with their Go-folded name key and
// "locks" them; reads are shared.
type accountRepo struct{ bunrepo.Accounts }

func (r accountRepo) Create(ctx context.Context, a accounts.Account) error {
	row := fromAccount(a)
	_, err := r.DB.NewInsert().Model(&row).Exec(ctx)
	return translate(err, "create account %q", a.Name)
}

// Lock only checks that the account exists: the unit of work began with
// BEGIN IMMEDIATE and holds the database's write lock already, so no other
// unit of work can change the account's members until it ends.
func (r accountRepo) Lock(ctx context.Context, id uuid.UUID) error {
	var got uuid.UUID
	err := r.DB.NewSelect().Table("accounts").Column("id").Where("id = ?", id).Scan(ctx, &got)
	return translate(err, "lock account %s", id)
}
