package memstore

import (
	"context"
	"slices"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/assessments"
)

func (t *tx) ReviewPolicies() assessments.ReviewPolicyRepo { return policies{t} }

type policies struct{ *tx }

func clonePolicy(p assessments.Policy) assessments.Policy {
	p.ReminderOffsets = slices.Clone(p.ReminderOffsets)
	if p.ReminderOffsets == nil {
		p.ReminderOffsets = []int{}
	}
	return p
}

func (r policies) Get(_ context.Context, accountID uuid.UUID) (assessments.Policy, error) {
	if err := r.readable(); err != nil {
		return assessments.Policy{}, err
	}
	p, ok := r.d.policies[accountID]
	if !ok {
		return assessments.Policy{}, notFound("review policy of account", accountID)
	}
	return clonePolicy(p), nil
}

func (r policies) Put(_ context.Context, accountID uuid.UUID, p assessments.Policy) error {
	return r.atomic(func() error {
		if err := requireRow(r.d.accounts, accountID, "account"); err != nil {
			return err
		}
		put(r.tx, r.d.policies, accountID, clonePolicy(p))
		return nil
	})
}

func (t *tx) CalendarKeys() assessments.CalendarKeyRepo { return calendarKeys{t} }

type calendarKeys struct{ *tx }

func (r calendarKeys) find(accountID, userID uuid.UUID) (assessments.CalendarKey, bool) {
	for _, k := range r.d.calendarKeys {
		if k.AccountID == accountID && k.UserID == userID {
			return k, true
		}
	}
	return assessments.CalendarKey{}, false
}

func (r calendarKeys) Get(_ context.Context, accountID, userID uuid.UUID) (assessments.CalendarKey, error) {
	if err := r.readable(); err != nil {
		return assessments.CalendarKey{}, err
	}
	if k, ok := r.find(accountID, userID); ok {
		return k, nil
	}
	return assessments.CalendarKey{}, notFound("calendar key of user", userID)
}

func (r calendarKeys) GetByID(_ context.Context, id uuid.UUID) (assessments.CalendarKey, error) {
	if err := r.readable(); err != nil {
		return assessments.CalendarKey{}, err
	}
	if k, ok := r.d.calendarKeys[id]; ok {
		return k, nil
	}
	return assessments.CalendarKey{}, notFound("calendar key", id)
}

func (r calendarKeys) Create(_ context.Context, k assessments.CalendarKey) error {
	return r.atomic(func() error {
		if err := requireRow(r.d.accounts, k.AccountID, "account"); err != nil {
			return err
		}
		if err := requireRow(r.d.users, k.UserID, "user"); err != nil {
			return err
		}
		if _, ok := r.find(k.AccountID, k.UserID); ok {
			return conflict("user %s already has a calendar key in account %s", k.UserID, k.AccountID)
		}
		if _, ok := r.d.calendarKeys[k.ID]; ok {
			return conflict("calendar key %s exists", k.ID)
		}
		put(r.tx, r.d.calendarKeys, k.ID, k)
		return nil
	})
}

func (r calendarKeys) Delete(_ context.Context, accountID, userID uuid.UUID) error {
	return r.atomic(func() error {
		k, ok := r.find(accountID, userID)
		if !ok {
			return notFound("calendar key of user", userID)
		}
		del(r.tx, r.d.calendarKeys, k.ID)
		return nil
	})
}
