package assessments

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/platform/domainevent"
)

// PolicyView is an account's review policy as answered.
type PolicyView struct {
	AccountID uuid.UUID
	Policy
	// Default is true while the account has never saved a policy.
	Default bool
}

// policyOf returns the policy in force for an account: the saved one, or
// the default.
func policyOf(ctx context.Context, tx Tx, accountID uuid.UUID) (Policy, bool, error) {
	p, err := tx.ReviewPolicies().Get(ctx, accountID)
	if errors.Is(err, core.ErrNotFound) {
		return DefaultPolicy(), true, nil
	}
	return p, false, err
}

// ReviewPolicy returns an account's review policy (viewer or above).
func (s *Service) ReviewPolicy(ctx context.Context, a accounts.Actor, ref accounts.AccountRef) (PolicyView, error) {
	var out PolicyView
	err := s.d.View(ctx, func(ctx context.Context, tx Tx) error {
		acc, err := accounts.Authorize(ctx, tx, a, ref, accounts.ReadRole)
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
func (s *Service) PutReviewPolicy(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, in PolicyInput) (PolicyView, error) {
	var out PolicyView
	err := s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		acc, err := accounts.Authorize(ctx, tx, a, ref, accounts.ManageRole)
		if err != nil {
			return err
		}
		cur, _, err := policyOf(ctx, tx, acc.Account.ID)
		if err != nil {
			return err
		}
		next, err := ApplyPolicy(cur, in)
		if err != nil {
			return err
		}
		next.UpdatedAt, next.UpdatedBy = s.d.Now(), a.Email
		if err := tx.ReviewPolicies().Put(ctx, acc.Account.ID, next); err != nil {
			return err
		}
		out = PolicyView{AccountID: acc.Account.ID, Policy: next}
		return nil
	})
	return out, err
}

// schedule sets Due on each assessment from the policy and the clock.
func schedule(as []Assessment, p Policy, now time.Time) {
	for i := range as {
		as[i].Due = Schedule(as[i].Fields, as[i].LastReviewedAt, p, now)
	}
}

// Schedule sets Due on assessments of an account from its policy in tx.
func (s *Service) Schedule(ctx context.Context, tx Tx, accountID uuid.UUID, as []Assessment) error {
	p, _, err := policyOf(ctx, tx, accountID)
	if err != nil {
		return err
	}
	schedule(as, p, s.d.Now())
	return nil
}

// scheduleOne computes the Due of one assessment of an account in tx.
func (s *Service) scheduleOne(ctx context.Context, tx Tx, a *Assessment) error {
	p, _, err := policyOf(ctx, tx, a.AccountID)
	if err != nil {
		return err
	}
	a.Due = Schedule(a.Fields, a.LastReviewedAt, p, s.d.Now())
	return nil
}

// AssessmentSorts are the values of sort on assessment reads: by next
// review (soonest first, never reviewed last), or by last update (newest
// first, the default).
func AssessmentSorts() []string { return []string{"-updated_at", "next_review_at", "-next_review_at"} }

// filterAssessments keeps the assessments in one of the states (none: all)
// and sorts them.
func filterAssessments(as []Assessment, states []State, sort string) []Assessment {
	if len(states) > 0 {
		as = slices.DeleteFunc(as, func(a Assessment) bool { return !slices.Contains(states, a.Due.State) })
	}
	if sort == "next_review_at" || sort == "-next_review_at" {
		desc := strings.HasPrefix(sort, "-")
		slices.SortStableFunc(as, func(x, y Assessment) int {
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
func parseAssessmentView(rawStates []string, sort string) ([]State, string, error) {
	var errs core.Fields
	var states []State
	for _, raw := range rawStates {
		for _, part := range strings.Split(raw, ",") {
			if part = strings.TrimSpace(part); part == "" {
				continue
			}
			st, err := ParseState("ReviewStates", part)
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
		errs.Add("Sort", "%q is not one of: %s", sort, strings.Join(AssessmentSorts(), ", "))
	}
	return states, sort, errs.Err()
}

// reviewCounts counts the assessments of the lists in scope that are due
// soon and overdue under the account's policy.
func (s *Service) reviewCounts(ctx context.Context, tx Tx, scope lists.ListScope) (dueSoon, overdue int, err error) {
	ts, err := tx.Assessments().Timings(ctx, AssessmentFilter{AccountID: scope.AccountID, ListID: scope.ListID})
	if err != nil {
		return 0, 0, err
	}
	p, _, err := policyOf(ctx, tx, scope.AccountID)
	if err != nil {
		return 0, 0, err
	}
	now := s.d.Now()
	for _, t := range ts {
		switch t.Due(p, now).State {
		case DueSoon:
			dueSoon++
		case Overdue:
			overdue++
		}
	}
	return dueSoon, overdue, nil
}

// Upsert applies changes in order (several for one vendor merge,
// later ones winning), creating assessments that do not exist, and saves
// only those that actually changed, each with one audit event. It returns
// the saved assessments. A validation failure names the field, or for
// changes from CSV rows the cell (row and column) of the csv field.
func (s *Service) Upsert(ctx context.Context, tx Tx, a accounts.Actor, accountID uuid.UUID, l lists.List, changes []Request) ([]Assessment, error) {
	saved, _, err := s.upsert(ctx, tx, a, accountID, l, changes)
	return saved, err
}

// upsert is Upsert, which also returns the assessments as they were before
// (those that existed), read under the entries' locks.
func (s *Service) upsert(ctx context.Context, tx Tx, a accounts.Actor, accountID uuid.UUID, l lists.List, changes []Request) (saved, existing []Assessment, err error) {
	if len(changes) == 0 {
		return nil, nil, nil
	}
	var ids []uuid.UUID
	seen := map[uuid.UUID]bool{}
	for _, c := range changes {
		if !seen[c.Vendor.ID] {
			seen[c.Vendor.ID] = true
			ids = append(ids, c.Vendor.ID)
		}
	}
	// Concurrent upserts of one assessment take turns from here on, so each
	// reads, and audits against, what the one before it saved.
	if err := tx.Lists().LockEntries(ctx, l.ID, ids); err != nil {
		return nil, nil, err
	}
	if existing, err = tx.Assessments().ListByVendors(ctx, l.ID, ids); err != nil {
		return nil, nil, err
	}
	type state struct {
		orig  Assessment
		cur   Assessment
		isNew bool
	}
	states := map[uuid.UUID]*state{}
	for _, e := range existing {
		states[e.VendorID] = &state{orig: e, cur: e}
	}
	now := s.d.Now()
	var errs core.Fields
	var cells []lists.RowError
	for _, c := range changes {
		st, ok := states[c.Vendor.ID]
		if !ok {
			asm := Assessment{ID: s.d.IDs.New(), AccountID: accountID, ListID: l.ID, VendorID: c.Vendor.ID,
				VendorName: c.Vendor.Name.String(), CreatedAt: now, CreatedBy: a.Email}
			asm.Status = NotStarted
			asm.DataCollected = []string{}
			if c.Vendor.HasProfile { // custom vendors have none: no lookup
				if p, err := tx.Profiles().Get(ctx, c.Vendor.ID); err == nil {
					pid := p.ID
					asm.VendorProfileID = &pid
				} else if !errors.Is(err, core.ErrNotFound) {
					return nil, nil, err
				}
			}
			st = &state{orig: asm, cur: asm, isNew: true}
			st.orig.Fields = Fields{}
			states[c.Vendor.ID] = st
		}
		next, err := Apply(st.cur.Fields, c.Input)
		if err == nil {
			err = CheckApprovalDate(c.Input, next, now)
		}
		switch {
		case err == nil:
			prev := st.cur.Status
			st.cur.Fields = next
			MarkReviewed(&st.cur, prev, now)
		case c.Row > 0 && errors.Is(err, core.ErrInvalid):
			for _, f := range core.Failures(err) {
				cells = append(cells, lists.AssessmentCell(c.Row, f))
			}
		case !errs.AddErr(err):
			return nil, nil, err
		}
	}
	if len(cells) > 0 {
		return nil, nil, lists.RefuseBatch(cells)
	}
	if err := errs.Err(); err != nil {
		return nil, nil, err
	}
	var save []Assessment
	var events []AuditEvent
	for _, id := range ids {
		st := states[id]
		changes := Diff(st.orig.Fields, st.cur.Fields)
		if len(changes) == 0 && !st.isNew {
			continue
		}
		st.cur.UpdatedAt, st.cur.UpdatedBy = now, a.Email
		save = append(save, st.cur)
		if len(changes) > 0 {
			events = append(events, AuditEvent{ID: s.d.IDs.New(), AssessmentID: st.cur.ID, AccountID: accountID,
				CreatedAt: now, SubmittedBy: a.Email, Changes: changes})
		}
		// A new assessment starts as not-started: only a status it is
		// created with, or moved to, is a change to tell of.
		old := cmp.Or(st.orig.Status, NotStarted)
		if old != st.cur.Status {
			ev := domainevent.StatusChange(webhookRef(st.cur, l.Name), old.String(), st.cur.Status.String(), now)
			if err := s.d.Event(ctx, tx, ev); err != nil {
				return nil, nil, err
			}
		}
	}
	if err := tx.Assessments().Save(ctx, save); err != nil {
		return nil, nil, err
	}
	if err := tx.Assessments().AppendEvents(ctx, events); err != nil {
		return nil, nil, err
	}
	return save, existing, nil
}

// webhookRef names an assessment in its webhook events.
func webhookRef(a Assessment, listName string) domainevent.Assessment {
	return domainevent.Assessment{AccountID: a.AccountID, AssessmentID: a.ID, VendorID: a.VendorID, VendorName: a.VendorName,
		ListID: a.ListID, ListName: listName}
}
