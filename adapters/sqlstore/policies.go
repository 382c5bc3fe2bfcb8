package sqlstore

import (
	"context"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/assessments"
)

// reviewPolicyRepo is assessments.ReviewPolicyRepo.
type reviewPolicyRepo struct{ base }

// Get returns the account's policy.
func (r reviewPolicyRepo) Get(ctx context.Context, accountID uuid.UUID) (assessments.Policy, error) {
	var row reviewPolicyRow
	if err := r.DB.NewSelect().Model(&row).Where("rp.account_id = ?", accountID).Scan(ctx); err != nil {
		return assessments.Policy{}, r.Translate(err, "review policy of account %s", accountID)
	}
	return row.Core(), nil
}

// Put stores the account's policy in one statement.
func (r reviewPolicyRepo) Put(ctx context.Context, accountID uuid.UUID, p assessments.Policy) error {
	row := fromReviewPolicy(accountID, p)
	_, err := r.DB.NewInsert().Model(&row).On("CONFLICT (account_id) DO UPDATE").
		Set("critical_months = EXCLUDED.critical_months, high_months = EXCLUDED.high_months").
		Set("medium_months = EXCLUDED.medium_months, low_months = EXCLUDED.low_months, not_tiered_months = EXCLUDED.not_tiered_months").
		Set("reminder_offsets = EXCLUDED.reminder_offsets, repeat_overdue = EXCLUDED.repeat_overdue").
		Set("updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by").
		Exec(ctx)
	return r.Translate(err, "save review policy of account %s", accountID)
}

// calendarKeyRepo is assessments.CalendarKeyRepo.
type calendarKeyRepo struct{ base }

// Get returns the key of a member of an account.
func (r calendarKeyRepo) Get(ctx context.Context, accountID, userID uuid.UUID) (assessments.CalendarKey, error) {
	var row calendarKeyRow
	if err := r.DB.NewSelect().Model(&row).Where("ck.account_id = ? AND ck.user_id = ?", accountID, userID).Scan(ctx); err != nil {
		return assessments.CalendarKey{}, r.Translate(err, "calendar key of user %s in account %s", userID, accountID)
	}
	return row.Core(), nil
}

// GetByID returns a key by its id.
func (r calendarKeyRepo) GetByID(ctx context.Context, id uuid.UUID) (assessments.CalendarKey, error) {
	var row calendarKeyRow
	if err := r.DB.NewSelect().Model(&row).Where("ck.id = ?", id).Scan(ctx); err != nil {
		return assessments.CalendarKey{}, r.Translate(err, "calendar key %s", id)
	}
	return row.Core(), nil
}

// Create stores a key; the unique index refuses a second one per member.
func (r calendarKeyRepo) Create(ctx context.Context, k assessments.CalendarKey) error {
	row := fromCalendarKey(k)
	_, err := r.DB.NewInsert().Model(&row).Exec(ctx)
	return r.Translate(err, "create calendar key")
}

// Delete removes the key of a member.
func (r calendarKeyRepo) Delete(ctx context.Context, accountID, userID uuid.UUID) error {
	res, err := r.DB.NewDelete().Model((*calendarKeyRow)(nil)).Where("account_id = ? AND user_id = ?", accountID, userID).Exec(ctx)
	if err != nil {
		return r.Translate(err, "delete calendar key")
	}
	return r.MustAffect(res, "calendar key of user %s in account %s", userID, accountID)
}
