package postgres

import (
	"context"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/adapters/internal/bunrepo"
	"github.com/vetted-dev/vetted/adapters/internal/dbrow"
	"github.com/vetted-dev/vetted/core/accounts"
)

// Sorting: "by name" means byte order, as Go's sort.Strings, whatever the
// database's collation.
const collateC = ` COLLATE "C"`

// byName sorts a text column by name.
func byName(column string) string { return column + collateC }

// lowerKey is the expression of the unique indexes on names and e-mails
// that compare case-insensitively.
func lowerKey(column string) string { return "lower(" + column + ")" }

// accountRepo creates organizations (unique by lower(name)) and locks them;
// reads are shared.
type accountRepo struct {
	bunrepo.Accounts
	readOnly bool
}

func (r accountRepo) Create(ctx context.Context, a accounts.Account) error {
	row := dbrow.FromAccount(a)
	_, err := r.DB.NewInsert().Model(&row).Exec(ctx)
	return translate(err, "create account %q", a.Name)
}

func (r accountRepo) Lock(ctx context.Context, id uuid.UUID) error {
	var got uuid.UUID
	q := r.DB.NewSelect().Table("accounts").Column("id").Where("id = ?", id)
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
