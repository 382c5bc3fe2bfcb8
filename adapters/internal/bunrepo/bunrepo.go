// Package bunrepo holds the repositories of ports.Tx that the SQL stores
// (adapters/postgres and adapters/sqlite) run with the same SQL, on the
// shared rows of adapters/internal/dbrow. A store uses one as it is, or
// embeds it and adds the methods whose SQL it says in its own words (row
// locks, case-folded lookups); the repositories of tables whose SQL differs
// throughout (accounts, vendors, lists) are each store's own.
package bunrepo

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/vetted-dev/vetted/adapters/internal/dbrow"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/account"
)

// Base is what every repository holds: the unit of work and what the store
// says in its own words.
type Base struct {
	DB bun.IDB
	// Translate turns a driver error into a core error wrapped with what
	// was being done (unique violation: core.ErrConflict, and so on).
	Translate func(err error, format string, args ...any) error
	// ByName is the ORDER BY term that sorts a text column "by name", which
	// in Vetted means byte order (Go's sort.Strings) whatever the collation.
	ByName func(column string) string
}

// NotFound is the error for an absent row.
func NotFound(format string, args ...any) error {
	return fmt.Errorf("%s: %w", fmt.Sprintf(format, args...), core.ErrNotFound)
}

// MustAffect returns a not-found error when a write touched no row.
func (b Base) MustAffect(res sql.Result, format string, args ...any) error {
	n, err := res.RowsAffected()
	if err != nil {
		return b.Translate(err, format, args...)
	}
	if n == 0 {
		return NotFound(format, args...)
	}
	return nil
}

// LowerAll lower-cases e-mails the way they are stored (strings.ToLower).
func LowerAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strings.ToLower(s)
	}
	return out
}

// Users is ports.UserRepo. E-mails are stored lower-case, so lookups lower
// the argument in Go and compare the column as it is.
type Users struct{ Base }

func (r Users) get(ctx context.Context, what, where string, arg any) (account.User, error) {
	var row dbrow.User
	err := r.DB.NewSelect().Model(&row).Where(where, arg).Limit(1).Scan(ctx)
	if err != nil {
		return account.User{}, r.Translate(err, "user %s", what)
	}
	return row.Core(), nil
}

// Get returns a user by id.
func (r Users) Get(ctx context.Context, id uuid.UUID) (account.User, error) {
	return r.get(ctx, id.String(), "u.id = ?", id)
}

// GetBySubject returns the user with a token subject; the empty subject of
// users added by e-mail finds nobody.
func (r Users) GetBySubject(ctx context.Context, subject string) (account.User, error) {
	if subject == "" {
		return account.User{}, NotFound("user with empty subject")
	}
	return r.get(ctx, "subject "+subject, "u.subject = ?", subject)
}

// GetByEmail returns the user with an e-mail, in any case.
func (r Users) GetByEmail(ctx context.Context, email string) (account.User, error) {
	return r.get(ctx, email, "u.email = ?", strings.ToLower(email))
}

// ListByEmails returns the users among emails that exist.
func (r Users) ListByEmails(ctx context.Context, emails []string) ([]account.User, error) {
	if len(emails) == 0 {
		return []account.User{}, nil
	}
	var rows []dbrow.User
	if err := r.DB.NewSelect().Model(&rows).Where("u.email IN (?)", bun.List(LowerAll(emails))).Scan(ctx); err != nil {
		return nil, r.Translate(err, "list users by e-mail")
	}
	return dbrow.Map(rows, dbrow.User.Core), nil
}

// Save inserts or updates a user by id.
func (r Users) Save(ctx context.Context, u account.User) error {
	row := dbrow.FromUser(u)
	_, err := r.DB.NewInsert().Model(&row).
		On("CONFLICT (id) DO UPDATE").
		Set("subject = EXCLUDED.subject, email = EXCLUDED.email, name = EXCLUDED.name, email_verified = EXCLUDED.email_verified").
		Exec(ctx)
	return r.Translate(err, "save user %s", u.ID)
}

// Members is ports.MemberRepo.
type Members struct{ Base }

func (r Members) query(ctx context.Context, rows *[]dbrow.MemberView, where func(*bun.SelectQuery) *bun.SelectQuery) error {
	q := r.DB.NewSelect().
		TableExpr("members AS m").
		ColumnExpr("m.account_id, m.user_id, m.role, m.created_at, u.email, u.name, u.email_verified").
		Join("JOIN users AS u ON u.id = m.user_id")
	return where(q).Scan(ctx, rows)
}

// Get returns the membership of a user in an account.
func (r Members) Get(ctx context.Context, accountID, userID uuid.UUID) (account.Member, error) {
	var rows []dbrow.MemberView
	err := r.query(ctx, &rows, func(q *bun.SelectQuery) *bun.SelectQuery {
		return q.Where("m.account_id = ? AND m.user_id = ?", accountID, userID)
	})
	if err != nil {
		return account.Member{}, r.Translate(err, "member %s of %s", userID, accountID)
	}
	if len(rows) == 0 {
		return account.Member{}, NotFound("member %s of %s", userID, accountID)
	}
	return rows[0].Core()
}

// List returns an account's members by e-mail.
func (r Members) List(ctx context.Context, accountID uuid.UUID) ([]account.Member, error) {
	var rows []dbrow.MemberView
	err := r.query(ctx, &rows, func(q *bun.SelectQuery) *bun.SelectQuery {
		return q.Where("m.account_id = ?", accountID).OrderExpr(r.ByName("u.email"))
	})
	if err != nil {
		return nil, r.Translate(err, "members of %s", accountID)
	}
	return dbrow.MapErr(rows, dbrow.MemberView.Core)
}

// Put inserts or updates memberships in one statement.
func (r Members) Put(ctx context.Context, ms []account.Member) error {
	if len(ms) == 0 {
		return nil
	}
	// One row per (account, user): the last one given wins, as it would
	// one statement at a time, and ON CONFLICT may touch each row only once.
	seen := make(map[[2]uuid.UUID]int, len(ms))
	rows := make([]dbrow.Member, 0, len(ms))
	for _, m := range ms {
		row, err := dbrow.FromMember(m)
		if err != nil {
			return r.Translate(err, "put members")
		}
		k := [2]uuid.UUID{m.AccountID, m.UserID}
		if i, ok := seen[k]; ok {
			rows[i] = row
			continue
		}
		seen[k] = len(rows)
		rows = append(rows, row)
	}
	_, err := r.DB.NewInsert().Model(&rows).
		On("CONFLICT (account_id, user_id) DO UPDATE").
		Set("role = EXCLUDED.role").
		Exec(ctx)
	return r.Translate(err, "put members")
}

// Delete removes the memberships of the given users.
func (r Members) Delete(ctx context.Context, accountID uuid.UUID, userIDs []uuid.UUID) error {
	if len(userIDs) == 0 {
		return nil
	}
	_, err := r.DB.NewDelete().Model((*dbrow.Member)(nil)).
		Where("account_id = ?", accountID).Where("user_id IN (?)", bun.List(userIDs)).
		Exec(ctx)
	return r.Translate(err, "delete members of %s", accountID)
}
