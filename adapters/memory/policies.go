package memory

import (
	"context"
	"slices"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/review"
	"github.com/vetted-dev/vetted/ports"
)

func (t *tx) ReviewPolicies() ports.ReviewPolicyRepo { return policies{t} }

type policies struct{ *tx }

func clonePolicy(p review.Policy) review.Policy {
	p.ReminderOffsets = slices.Clone(p.ReminderOffsets)
	if p.ReminderOffsets == nil {
		p.ReminderOffsets = []int{}
	}
	return p
}

func (r policies) Get(_ context.Context, accountID uuid.UUID) (review.Policy, error) {
	if err := r.readable(); err != nil {
		return review.Policy{}, err
	}
	p, ok := r.d.policies[accountID]
	if !ok {
		return review.Policy{}, notFound("review policy of account", accountID)
	}
	return clonePolicy(p), nil
}

func (r policies) Put(_ context.Context, accountID uuid.UUID, p review.Policy) error {
	return r.atomic(func() error {
		if err := requireRow(r.d.accounts, accountID, "account"); err != nil {
			return err
		}
		put(r.tx, r.d.policies, accountID, clonePolicy(p))
		return nil
	})
}
