package sqlstore

import (
	"context"
	"strings"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/vetted-dev/vetted/core/accounts"
)

// userRepo is accounts.UserRepo. E-mails are stored lower-case, so lookups lower
// the argument in Go and compare the column as it is.
type userRepo struct{ base }

func (r userRepo) get(ctx context.Context, what, where string, arg any) (accounts.User, error) {
	var row userRow
	err := r.DB.NewSelect().Model(&row).Where(where, arg).Limit(1).Scan(ctx)
	if err != nil {
		return accounts.User{}, r.Translate(err, "user %s", what)
	}
	return row.Core(), nil
}

// Get returns a user by id.
func (r userRepo) Get(ctx context.Context, id uuid.UUID) (accounts.User, error) {
	return r.get(ctx, id.String(), "u.id = ?", id)
}

// GetBySubject returns the user with a token subject; the empty subject of
// users added by e-mail finds nobody.
func (r userRepo) GetBySubject(ctx context.Context, subject string) (accounts.User, error) {
	if subject == "" {
		return accounts.User{}, notFound("user with empty subject")
	}
	return r.get(ctx, "subject "+subject, "u.subject = ?", subject)
}

// GetByEmail returns the user with an e-mail, in any case.
func (r userRepo) GetByEmail(ctx context.Context, email string) (accounts.User, error) {
	return r.get(ctx, email, "u.email = ?", strings.ToLower(email))
}

// ListByEmails returns the users among emails that exist.
func (r userRepo) ListByEmails(ctx context.Context, emails []string) ([]accounts.User, error) {
	if len(emails) == 0 {
		return []accounts.User{}, nil
	}
	var rows []userRow
	if err := r.DB.NewSelect().Model(&rows).Where("u.email IN (?)", bun.List(lowerAll(emails))).Scan(ctx); err != nil {
		return nil, r.Translate(err, "list users by e-mail")
	}
	return mapRows(rows, userRow.Core), nil
}

// Save inserts or updates a user by id.
func (r userRepo) Save(ctx context.Context, u accounts.User) error {
	row := fromUser(u)
	_, err := r.DB.NewInsert().Model(&row).
		On("CONFLICT (id) DO UPDATE").
		Set("subject = EXCLUDED.subject, email = EXCLUDED.email, name = EXCLUDED.name, email_verified = EXCLUDED.email_verified").
		Exec(ctx)
	return r.Translate(err, "save user %s", u.ID)
}

// memberRepo is accounts.MemberRepo.
type memberRepo struct{ base }

func (r memberRepo) query(ctx context.Context, rows *[]memberViewRow, where func(*bun.SelectQuery) *bun.SelectQuery) error {
	q := r.DB.NewSelect().
		TableExpr("members AS m").
		ColumnExpr("m.account_id, m.user_id, m.role, m.created_at, u.email, u.name, u.email_verified").
		Join("JOIN users AS u ON u.id = m.user_id")
	return where(q).Scan(ctx, rows)
}

// Get returns the membership of a user in an account.
func (r memberRepo) Get(ctx context.Context, accountID, userID uuid.UUID) (accounts.Member, error) {
	var rows []memberViewRow
	err := r.query(ctx, &rows, func(q *bun.SelectQuery) *bun.SelectQuery {
		return q.Where("m.account_id = ? AND m.user_id = ?", accountID, userID)
	})
	if err != nil {
		return accounts.Member{}, r.Translate(err, "member %s of %s", userID, accountID)
	}
	if len(rows) == 0 {
		return accounts.Member{}, notFound("member %s of %s", userID, accountID)
	}
	return rows[0].Core()
}

// List returns an account's members by e-mail.
func (r memberRepo) List(ctx context.Context, accountID uuid.UUID) ([]accounts.Member, error) {
	var rows []memberViewRow
	err := r.query(ctx, &rows, func(q *bun.SelectQuery) *bun.SelectQuery {
		return q.Where("m.account_id = ?", accountID).OrderExpr(r.ByName("u.email"))
	})
	if err != nil {
		return nil, r.Translate(err, "members of %s", accountID)
	}
	return mapRowsErr(rows, memberViewRow.Core)
}

// Put inserts or updates memberships in one statement.
func (r memberRepo) Put(ctx context.Context, ms []accounts.Member) error {
	if len(ms) == 0 {
		return nil
	}
	// One row per (account, user): the last one given wins, as it would
	// one statement at a time, and ON CONFLICT may touch each row only once.
	seen := make(map[[2]uuid.UUID]int, len(ms))
	rows := make([]memberRow, 0, len(ms))
	for _, m := range ms {
		row, err := fromMember(m)
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
func (r memberRepo) Delete(ctx context.Context, accountID uuid.UUID, userIDs []uuid.UUID) error {
	if len(userIDs) == 0 {
		return nil
	}
	_, err := r.DB.NewDelete().Model((*memberRow)(nil)).
		Where("account_id = ?", accountID).Where("user_id IN (?)", bun.List(userIDs)).
		Exec(ctx)
	return r.Translate(err, "delete members of %s", accountID)
}

// accountRepo holds the methods of accounts.AccountRepo whose SQL is the same in
// both dialects; each adds Lock (a row lock, or none).
type accountRepo struct{ base }

// Create inserts an organization; names are unique case-insensitively.
func (r accountRepo) Create(ctx context.Context, a accounts.Account) error {
	_, err := r.DB.NewInsert().Model(insertModel(r.base, a, fromAccountKeyed, fromAccount)).Exec(ctx)
	return r.Translate(err, "create account %q", a.Name)
}

// Get returns an account.
func (r accountRepo) Get(ctx context.Context, id uuid.UUID) (accounts.Account, error) {
	var row accountRow
	if err := r.DB.NewSelect().Model(&row).Where("a.id = ?", id).Scan(ctx); err != nil {
		return accounts.Account{}, r.Translate(err, "account %s", id)
	}
	return row.Core(), nil
}

// ListOrganizations returns every non-personal account by name.
func (r accountRepo) ListOrganizations(ctx context.Context) ([]accounts.Account, error) {
	var rows []accountRow
	if err := r.DB.NewSelect().Model(&rows).Where("NOT a.personal").OrderExpr(r.ByName("a.name") + ", a.id").Scan(ctx); err != nil {
		return nil, r.Translate(err, "list accounts")
	}
	return mapRows(rows, accountRow.Core), nil
}

// ListReviewing returns the active accounts with an assessment, by id.
func (r accountRepo) ListReviewing(ctx context.Context) ([]accounts.Account, error) {
	var rows []accountRow
	err := r.DB.NewSelect().Model(&rows).
		Where("a.active").
		Where("EXISTS (SELECT 1 FROM assessments AS s WHERE s.account_id = a.id)").
		Order("a.id").Scan(ctx)
	if err != nil {
		return nil, r.Translate(err, "list accounts with assessments")
	}
	return mapRows(rows, accountRow.Core), nil
}

// memberships selects accounts joined with one user's membership in them.
func (r accountRepo) memberships(rows *[]membershipRow, userID uuid.UUID) *bun.SelectQuery {
	return r.DB.NewSelect().Model(rows).
		ColumnExpr("a.id, a.name, a.active, a.personal, a.created_at, m.role").
		Join("JOIN members AS m ON m.account_id = a.id").
		Where("m.user_id = ?", userID)
}

// ListForUser returns the organizations of a user with the user's role, by name.
func (r accountRepo) ListForUser(ctx context.Context, userID uuid.UUID) ([]accounts.Membership, error) {
	var rows []membershipRow
	err := r.memberships(&rows, userID).Where("NOT a.personal").
		OrderExpr(r.ByName("a.name") + ", a.id").
		Scan(ctx)
	if err != nil {
		return nil, r.Translate(err, "list accounts of user %s", userID)
	}
	return mapRowsErr(rows, membershipRow.Core)
}

// MembershipOf returns an account with the user's role in it.
func (r accountRepo) MembershipOf(ctx context.Context, accountID, userID uuid.UUID) (accounts.Membership, error) {
	var rows []membershipRow
	err := r.memberships(&rows, userID).Where("a.id = ?", accountID).Scan(ctx)
	if err != nil {
		return accounts.Membership{}, r.Translate(err, "membership of %s in %s", userID, accountID)
	}
	if len(rows) == 0 {
		return accounts.Membership{}, notFound("membership of %s in %s", userID, accountID)
	}
	return rows[0].Core()
}

// Delete removes an account and everything it owns.
func (r accountRepo) Delete(ctx context.Context, id uuid.UUID) error {
	// Members, lists, entries, products, quota claims, assessments, audit
	// events, documents and subscribers go with it by ON DELETE CASCADE.
	res, err := r.DB.NewDelete().Model((*accountRow)(nil)).Where("id = ?", id).Exec(ctx)
	if err != nil {
		return r.Translate(err, "delete account %s", id)
	}
	return r.MustAffect(res, "delete account %s", id)
}
