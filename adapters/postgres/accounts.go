package postgres

import (
	"context"
	"strings"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/vetted-dev/vetted/adapters/internal/dbrow"
	"github.com/vetted-dev/vetted/core/account"
)

func lower(s string) string { return strings.ToLower(s) }

func lowerAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strings.ToLower(s)
	}
	return out
}

// Sorting: "by name" means byte order, as Go's sort.Strings, whatever the
// database's collation.
const collateC = ` COLLATE "C"`

type userRepo struct{ db bun.IDB }

func (r userRepo) get(ctx context.Context, what, where string, arg any) (account.User, error) {
	var row dbrow.User
	err := r.db.NewSelect().Model(&row).Where(where, arg).Limit(1).Scan(ctx)
	if err != nil {
		return account.User{}, translate(err, "user %s", what)
	}
	return row.Core(), nil
}

func (r userRepo) Get(ctx context.Context, id uuid.UUID) (account.User, error) {
	return r.get(ctx, id.String(), "u.id = ?", id)
}

func (r userRepo) GetBySubject(ctx context.Context, subject string) (account.User, error) {
	if subject == "" {
		return account.User{}, notFound("user with empty subject")
	}
	return r.get(ctx, "subject "+subject, "u.subject = ?", subject)
}

func (r userRepo) GetByEmail(ctx context.Context, email string) (account.User, error) {
	return r.get(ctx, email, "u.email = ?", lower(email))
}

func (r userRepo) ListByEmails(ctx context.Context, emails []string) ([]account.User, error) {
	if len(emails) == 0 {
		return []account.User{}, nil
	}
	var rows []dbrow.User
	if err := r.db.NewSelect().Model(&rows).Where("u.email IN (?)", bun.In(lowerAll(emails))).Scan(ctx); err != nil {
		return nil, translate(err, "list users by e-mail")
	}
	return dbrow.Map(rows, dbrow.User.Core), nil
}

func (r userRepo) Save(ctx context.Context, u account.User) error {
	row := dbrow.FromUser(u)
	_, err := r.db.NewInsert().Model(&row).
		On("CONFLICT (id) DO UPDATE").
		Set("subject = EXCLUDED.subject, email = EXCLUDED.email, name = EXCLUDED.name, email_verified = EXCLUDED.email_verified").
		Exec(ctx)
	return translate(err, "save user %s", u.ID)
}

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
	out := make([]account.Membership, 0, len(rows))
	for _, row := range rows {
		m, err := row.Core()
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
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

type memberRepo struct{ db bun.IDB }

func (r memberRepo) query(ctx context.Context, rows *[]dbrow.MemberView, where func(*bun.SelectQuery) *bun.SelectQuery) error {
	q := r.db.NewSelect().
		TableExpr("members AS m").
		ColumnExpr("m.account_id, m.user_id, m.role, m.created_at, u.email, u.name, u.email_verified").
		Join("JOIN users AS u ON u.id = m.user_id")
	return where(q).Scan(ctx, rows)
}

func (r memberRepo) Get(ctx context.Context, accountID, userID uuid.UUID) (account.Member, error) {
	var rows []dbrow.MemberView
	err := r.query(ctx, &rows, func(q *bun.SelectQuery) *bun.SelectQuery {
		return q.Where("m.account_id = ? AND m.user_id = ?", accountID, userID)
	})
	if err != nil {
		return account.Member{}, translate(err, "member %s of %s", userID, accountID)
	}
	if len(rows) == 0 {
		return account.Member{}, notFound("member %s of %s", userID, accountID)
	}
	return rows[0].Core()
}

func (r memberRepo) List(ctx context.Context, accountID uuid.UUID) ([]account.Member, error) {
	var rows []dbrow.MemberView
	err := r.query(ctx, &rows, func(q *bun.SelectQuery) *bun.SelectQuery {
		return q.Where("m.account_id = ?", accountID).OrderExpr("u.email" + collateC)
	})
	if err != nil {
		return nil, translate(err, "members of %s", accountID)
	}
	out := make([]account.Member, 0, len(rows))
	for _, row := range rows {
		m, err := row.Core()
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

func (r memberRepo) Put(ctx context.Context, ms []account.Member) error {
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
			return translate(err, "put members")
		}
		k := [2]uuid.UUID{m.AccountID, m.UserID}
		if i, ok := seen[k]; ok {
			rows[i] = row
			continue
		}
		seen[k] = len(rows)
		rows = append(rows, row)
	}
	_, err := r.db.NewInsert().Model(&rows).
		On("CONFLICT (account_id, user_id) DO UPDATE").
		Set("role = EXCLUDED.role").
		Exec(ctx)
	return translate(err, "put members")
}

func (r memberRepo) Delete(ctx context.Context, accountID uuid.UUID, userIDs []uuid.UUID) error {
	if len(userIDs) == 0 {
		return nil
	}
	_, err := r.db.NewDelete().Model((*dbrow.Member)(nil)).
		Where("account_id = ?", accountID).Where("user_id IN (?)", bun.In(userIDs)).
		Exec(ctx)
	return translate(err, "delete members of %s", accountID)
}
