package bunrepo

import (
	"context"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/adapters/internal/dbrow"
	"github.com/vetted-dev/vetted/core/review"
)

// ReviewPolicies is ports.ReviewPolicyRepo.
type ReviewPolicies struct{ Base }

// Get returns the account's policy.
func (r ReviewPolicies) Get(ctx context.Context, accountID uuid.UUID) (review.Policy, error) {
	var row dbrow.ReviewPolicy
	if err := r.DB.NewSelect().Model(&row).Where("rp.account_id = ?", accountID).Scan(ctx); err != nil {
		return review.Policy{}, r.Translate(err, "review policy of account %s", accountID)
	}
	return row.Core(), nil
}

// Put stores the account's policy in one statement.
func (r ReviewPolicies) Put(ctx context.Context, accountID uuid.UUID, p review.Policy) error {
	row := dbrow.FromReviewPolicy(accountID, p)
	_, err := r.DB.NewInsert().Model(&row).On("CONFLICT (account_id) DO UPDATE").
		Set("critical_months = EXCLUDED.critical_months, high_months = EXCLUDED.high_months").
		Set("medium_months = EXCLUDED.medium_months, low_months = EXCLUDED.low_months, not_tiered_months = EXCLUDED.not_tiered_months").
		Set("reminder_offsets = EXCLUDED.reminder_offsets, repeat_overdue = EXCLUDED.repeat_overdue").
		Set("updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by").
		Exec(ctx)
	return r.Translate(err, "save review policy of account %s", accountID)
}
