package service

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/account"
	"github.com/vetted-dev/vetted/core/review"
	"github.com/vetted-dev/vetted/ports"
)

// PolicyView is an account's review policy as answered.
type PolicyView struct {
	AccountID uuid.UUID
	review.Policy
	// Default is true while the account has never saved a policy.
	Default bool
}

// policyOf returns the policy in force for an account: the saved one, or
// the default.
func policyOf(ctx context.Context, tx ports.Tx, accountID uuid.UUID) (review.Policy, bool, error) {
	p, err := tx.ReviewPolicies().Get(ctx, accountID)
	if errors.Is(err, core.ErrNotFound) {
		return review.DefaultPolicy(), true, nil
	}
	return p, false, err
}

// ReviewPolicy returns an account's review policy (viewer or above).
func (s *Service) ReviewPolicy(ctx context.Context, a Actor, ref string) (PolicyView, error) {
	var out PolicyView
	err := s.d.Store.View(ctx, func(ctx context.Context, tx ports.Tx) error {
		acc, err := s.access(ctx, tx, a, ref, account.ReadRole)
		if err != nil {
			return err
		}
		out.AccountID = acc.Account.ID
		out.Policy, out.Default, err = policyOf(ctx, tx, acc.Account.ID)
		return err
	})
	return out, err
}

// PutReviewPolicy changes an account's review policy (admin or owner);
// omitted values keep theirs. Every due date moves with it: none is stored.
func (s *Service) PutReviewPolicy(ctx context.Context, a Actor, ref string, in review.PolicyInput) (PolicyView, error) {
	var out PolicyView
	err := s.write(ctx, func(ctx context.Context, tx ports.Tx) error {
		acc, err := s.access(ctx, tx, a, ref, account.ManageRole)
		if err != nil {
			return err
		}
		cur, _, err := policyOf(ctx, tx, acc.Account.ID)
		if err != nil {
			return err
		}
		next, err := review.ApplyPolicy(cur, in)
		if err != nil {
			return err
		}
		next.UpdatedAt, next.UpdatedBy = s.now(), a.Email
		if err := tx.ReviewPolicies().Put(ctx, acc.Account.ID, next); err != nil {
			return err
		}
		out = PolicyView{AccountID: acc.Account.ID, Policy: next}
		return nil
	})
	return out, err
}

// schedule sets Due on each assessment from the policy and the clock.
func schedule(as []review.Assessment, p review.Policy, now time.Time) {
	for i := range as {
		as[i].Due = review.Schedule(as[i].Fields, as[i].LastReviewedAt, p, now)
	}
}

// scheduleOne computes the Due of one assessment of an account in tx.
func (s *Service) scheduleOne(ctx context.Context, tx ports.Tx, a *review.Assessment) error {
	p, _, err := policyOf(ctx, tx, a.AccountID)
	if err != nil {
		return err
	}
	a.Due = review.Schedule(a.Fields, a.LastReviewedAt, p, s.now())
	return nil
}

// AssessmentSorts are the values of sort on assessment reads: by next
// review (soonest first, never reviewed last), or by last update (newest
// first, the default).
func AssessmentSorts() []string { return []string{"-updated_at", "next_review_at", "-next_review_at"} }

// filterAssessments keeps the assessments in one of the states (none: all)
// and sorts them.
func filterAssessments(as []review.Assessment, states []review.State, sort string) []review.Assessment {
	if len(states) > 0 {
		as = slices.DeleteFunc(as, func(a review.Assessment) bool { return !slices.Contains(states, a.Due.State) })
	}
	if sort == "next_review_at" || sort == "-next_review_at" {
		desc := strings.HasPrefix(sort, "-")
		slices.SortStableFunc(as, func(x, y review.Assessment) int {
			xz, yz := x.Due.NextReviewAt.IsZero(), y.Due.NextReviewAt.IsZero()
			switch {
			case xz && yz:
				return 0
			case xz: // never reviewed: last either way
				return 1
			case yz:
				return -1
			}
			c := x.Due.NextReviewAt.Compare(y.Due.NextReviewAt)
			if desc {
				c = -c
			}
			return cmp.Or(c, strings.Compare(x.VendorName, y.VendorName))
		})
	}
	return as
}

// parseAssessmentView checks the review-state and sort parameters.
func parseAssessmentView(rawStates []string, sort string) ([]review.State, string, error) {
	var errs core.Fields
	var states []review.State
	for _, raw := range rawStates {
		for _, part := range strings.Split(raw, ",") {
			if part = strings.TrimSpace(part); part == "" {
				continue
			}
			st, err := review.ParseState("review-state", part)
			if !errs.AddErr(err) {
				states = append(states, st)
			}
		}
	}
	sort = strings.TrimSpace(sort)
	if sort == "" {
		sort = "-updated_at"
	}
	if !slices.Contains(AssessmentSorts(), sort) {
		errs.Add("sort", "%q is not one of: %s", sort, strings.Join(AssessmentSorts(), ", "))
	}
	return states, sort, errs.Err()
}

// reviewCounts counts the assessments of the lists in scope that are due
// soon and overdue under the account's policy.
func (s *Service) reviewCounts(ctx context.Context, tx ports.Tx, scope ports.ListScope) (dueSoon, overdue int, err error) {
	as, err := tx.Assessments().Find(ctx, ports.AssessmentFilter{AccountID: scope.AccountID, ListID: scope.ListID})
	if err != nil {
		return 0, 0, err
	}
	p, _, err := policyOf(ctx, tx, scope.AccountID)
	if err != nil {
		return 0, 0, err
	}
	schedule(as, p, s.now())
	for _, a := range as {
		switch a.Due.State {
		case review.DueSoon:
			dueSoon++
		case review.Overdue:
			overdue++
		}
	}
	return dueSoon, overdue, nil
}
