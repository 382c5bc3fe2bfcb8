package bunrepo

import (
	"context"
	"strings"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/vetted-dev/vetted/adapters/internal/dbrow"
	"github.com/vetted-dev/vetted/core/accounts"
)

// Users is accounts.UserRepo. E-mails are stored lower-case, so lookups lower
// the argument in Go and compare the column as it is.
type Users struct{ Base }

func (r Users) get(ctx context.Context, what, where string, arg any) (accounts.User, error) {
	var row dbrow.User
	err := r.DB.NewSelect().Model(&row).Where(where, arg).Limit(1).Scan(ctx)
	if err != nil {
		return accounts.User{}, r.Translate(err, "user %s", what)
	}
	return row.Core(), nil
}

// Get returns a user by id.
func (r Users) Get(ctx context.Context, id uuid.UUID) (accounts.User, error) {
	return r.get(ctx, id.String(), "u.id = ?", id)
}

// GetBySubject returns the user with a token subject; the empty subject of
// users added by e-mail finds nobody.
func (r Users) GetBySubject(ctx context.Context, subject string) (accounts.User, error) {
	if subject == "" {
		return accounts.User{}, NotFound("user with empty subject")
	}
	return r.get(ctx, "subject "+subject, "u.subject = ?", subject)
}

// GetByEmail returns the user with an e-mail, in any case.
func (r Users) GetByEmail(ctx context.Context, email string) (accounts.User, error) {
	return r.get(ctx, email, "u.email = ?", strings.ToLower(email))
}

// ListByEmails returns the users among emails that exist.
func (r Users) ListByEmails(ctx context.Context, emails []string) ([]accounts.User, error) {
	if len(emails) == 0 {
		return []accounts.User{}, nil
	}
	var rows []dbrow.User
	if err := r.DB.NewSelect().Model(&rows).Where("u.email IN (?)", bun.List(LowerAll(emails))).Scan(ctx); err != nil {
		return nil, r.Translate(err, "list users by e-mail")
	}
	return dbrow.Map(rows, dbrow.User.Core), nil
}

// Save inserts or updates a user by id.
func (r Users) Save(ctx context.Context, u accounts.User) error {
	row := dbrow.FromUser(u)
	_, err := r.DB.NewInsert().Model(&row).
		On("CONFLICT (id) DO UPDATE").
		Set("subject = EXCLUDED.subject, email = EXCLUDED.email, name = EXCLUDED.name, email_verified = EXCLUDED.email_verified").
		Exec(ctx)
	return r.Translate(err, "save user %s", u.ID)
}

// Members is accounts.MemberRepo.
type Members struct{ Base }

func (r Members) query(ctx context.Context, rows *[]dbrow.MemberView, where func(*bun.SelectQuery) *bun.SelectQuery) error {
	q := r.DB.NewSelect().
		TableExpr("members AS m").
		ColumnExpr("m.account_id, m.user_id, m.role, m.created_at, u.email, u.name, u.email_verified").
		Join("JOIN users AS u ON u.id = m.user_id")
	return where(q).Scan(ctx, rows)
}

// Get returns the membership of a user in an account.
func (r Members) Get(ctx context.Context, accountID, userID uuid.UUID) (accounts.Member, error) {
	var rows []dbrow.MemberView
	err := r.query(ctx, &rows, func(q *bun.SelectQuery) *bun.SelectQuery {
		return q.Where("m.account_id = ? AND m.user_id = ?", accountID, userID)
	})
	if err != nil {
		return accounts.Member{}, r.Translate(err, "member %s of %s", userID, accountID)
	}
	if len(rows) == 0 {
		return accounts.Member{}, NotFound("member %s of %s", userID, accountID)
	}
	return rows[0].Core()
}

// List returns an account's members by e-mail.
func (r Members) List(ctx context.Context, accountID uuid.UUID) ([]accounts.Member, error) {
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
func (r Members) Put(ctx context.Context, ms []accounts.Member) error {
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

// Accounts holds the methods of accounts.AccountRepo whose SQL is the same in
// both stores; each store adds Create (organization names are unique by its
// own key) and Lock (a row lock, or none).
type Accounts struct{ Base }

// Get returns an account.
func (r Accounts) Get(ctx context.Context, id uuid.UUID) (accounts.Account, error) {
	var row dbrow.Account
	if err := r.DB.NewSelect().Model(&row).Where("a.id = ?", id).Scan(ctx); err != nil {
		return accounts.Account{}, r.Translate(err, "account %s", id)
	}
	return row.Core(), nil
}

// ListOrganizations returns every non-personal account by name.
func (r Accounts) ListOrganizations(ctx context.Context) ([]accounts.Account, error) {
	var rows []dbrow.Account
	if err := r.DB.NewSelect().Model(&rows).Where("NOT a.personal").OrderExpr(r.ByName("a.name") + ", a.id").Scan(ctx); err != nil {
		return nil, r.Translate(err, "list accounts")
	}
	return dbrow.Map(rows, dbrow.Account.Core), nil
}

// ListReviewing returns the active accounts with an assessment, by id.
func (r Accounts) ListReviewing(ctx context.Context) ([]accounts.Account, error) {
	var rows []dbrow.Account
	err := r.DB.NewSelect().Model(&rows).
		Where("a.active").
		Where("EXISTS (SELECT 1 FROM assessments AS s WHERE s.account_id = a.id)").
		Order("a.id").Scan(ctx)
	if err != nil {
		return nil, r.Translate(err, "list accounts with assessments")
	}
	return dbrow.Map(rows, dbrow.Account.Core), nil
}

// memberships selects accounts joined with one user's membership in them.
func (r Accounts) memberships(rows *[]dbrow.Membership, userID uuid.UUID) *bun.SelectQuery {
	return r.DB.NewSelect().Model(rows).
		ColumnExpr("a.id, a.name, a.active, a.personal, a.created_at, m.role").
		Join("JOIN members AS m ON m.account_id = a.id").
		Where("m.user_id = ?", userID)
}

// ListForUser returns the organizations of a user with the user's role, by name.
func (r Accounts) ListForUser(ctx context.Context, userID uuid.UUID) ([]accounts.Membership, error) {
	var rows []dbrow.Membership
	err := r.memberships(&rows, userID).Where("NOT a.personal").
		OrderExpr(r.ByName("a.name") + ", a.id").
		Scan(ctx)
	if err != nil {
		return nil, r.Translate(err, "list accounts of user %s", userID)
	}
	return dbrow.MapErr(rows, dbrow.Membership.Core)
}

// MembershipOf returns an account with the user's role in it.
func (r Accounts) MembershipOf(ctx context.Context, accountID, userID uuid.UUID) (accounts.Membership, error) {
	var rows []dbrow.Membership
	err := r.memberships(&rows, userID).Where("a.id = ?", accountID).Scan(ctx)
	if err != nil {
		return accounts.Membership{}, r.Translate(err, "membership of %s in %s", userID, accountID)
	}
	if len(rows) == 0 {
		return accounts.Membership{}, NotFound("membership of %s in %s", userID, accountID)
	}
	return rows[0].Core()
}

// Delete removes an account and everything it owns.
func (r Accounts) Delete(ctx context.Context, id uuid.UUID) error {
	// Members, lists, entries, products, quota claims, assessments, audit
	// events, documents and subscribers go with it by ON DELETE CASCADE.
	res, err := r.DB.NewDelete().Model((*dbrow.Account)(nil)).Where("id = ?", id).Exec(ctx)
	if err != nil {
		return r.Translate(err, "delete account %s", id)
	}
	return r.MustAffect(res, "delete account %s", id)
}
