package porttest

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/ports/stores"
)

// countsByEntries is the oracle of ListRepo.Counts: the dashboard's counts
// as they were computed before the store counted them, by reading every
// entry of every list in scope, one read per list, and the account's
// assessments.
func countsByEntries(ctx context.Context, tx stores.Tx, scope lists.ListScope, statuses []assessments.Status) (lists.ListCounts, error) {
	var c lists.ListCounts
	var ls []lists.List
	if scope.ListID == nil {
		var err error
		if ls, err = tx.Lists().ListByAccount(ctx, scope.AccountID); err != nil {
			return c, err
		}
	} else if l, err := tx.Lists().Get(ctx, scope.AccountID, *scope.ListID); err == nil {
		ls = []lists.List{l}
	}
	followed := map[uuid.UUID]bool{}
	for _, l := range ls {
		es, err := tx.Lists().Entries(ctx, l.ID)
		if err != nil {
			return c, err
		}
		for _, e := range es {
			followed[e.VendorID] = followed[e.VendorID] || e.AlertsEnabled
		}
		as, err := tx.Assessments().Find(ctx, assessments.AssessmentFilter{AccountID: scope.AccountID, ListID: &l.ID})
		if err != nil {
			return c, err
		}
		for _, a := range as {
			for _, st := range statuses {
				if a.Status == st {
					c.Assessments++
				}
			}
		}
	}
	c.Vendors = len(followed)
	for _, on := range followed {
		if on {
			c.Followed++
		}
	}
	return c, nil
}

func counts(f *fixture, scope lists.ListScope, statuses []assessments.Status) lists.ListCounts {
	f.t.Helper()
	return load(f, func(ctx context.Context, tx stores.Tx) (lists.ListCounts, error) {
		return tx.Assessments().Counts(ctx, scope, statuses)
	})
}

var countCases = []testCase{
	{"counts agree with reading every entry of every list, in every scope", func(t *testing.T, f *fixture) {
		acme, other, empty := f.org("Acme Org"), f.org("Other Org"), f.org("Empty Org")
		vs := f.vendors("Alpha", "Bravo", "Charlie", "Delta", "Echo")
		l1, l2, l3 := f.list(acme.ID, "one"), f.list(acme.ID, "two"), f.list(acme.ID, "three (empty)")
		lo := f.list(other.ID, "theirs")
		f.onList(l1.ID, vs[0], vs[1], vs[2])
		f.onList(l2.ID, vs[1], vs[2], vs[3])
		f.onList(lo.ID, vs[0], vs[4])
		// Bravo is followed nowhere, Charlie on one list of two, Delta nowhere.
		for _, off := range []struct{ list, vendor uuid.UUID }{
			{l1.ID, vs[1].ID}, {l2.ID, vs[1].ID}, {l1.ID, vs[2].ID}, {l2.ID, vs[3].ID},
		} {
			f.write(func(ctx context.Context, tx stores.Tx) error {
				return tx.Lists().SetAlerts(ctx, off.list, off.vendor, false)
			})
		}
		for _, a := range []struct {
			list   lists.List
			vendor int
			status assessments.Status
		}{
			{l1, 0, assessments.InProgress}, {l1, 1, assessments.OnHold}, {l1, 2, assessments.Approved},
			{l2, 1, assessments.InProgress}, {l2, 3, assessments.NotStarted}, {l2, 2, assessments.Rejected},
			{lo, 0, assessments.InProgress}, {lo, 4, assessments.OnHold},
		} {
			asm := f.newAssessment(a.list, vs[a.vendor])
			asm.Status = a.status
			f.saveAssessments(asm)
		}
		active := assessments.ActiveStatuses()
		// Hand-computed for the whole of Acme: four vendors, Alpha and
		// Charlie followed, three reviews under way.
		equal(t, "counts of Acme", counts(f, lists.ListScope{AccountID: acme.ID}, active),
			lists.ListCounts{Vendors: 4, Followed: 2, Assessments: 3})
		scopes := []struct {
			name  string
			scope lists.ListScope
		}{
			{"every list of Acme", lists.ListScope{AccountID: acme.ID}},
			{"list one", lists.ListScope{AccountID: acme.ID, ListID: &l1.ID}},
			{"list two", lists.ListScope{AccountID: acme.ID, ListID: &l2.ID}},
			{"an empty list", lists.ListScope{AccountID: acme.ID, ListID: &l3.ID}},
			{"a list of another account", lists.ListScope{AccountID: acme.ID, ListID: &lo.ID}},
			{"every list of Other", lists.ListScope{AccountID: other.ID}},
			{"an account without lists", lists.ListScope{AccountID: empty.ID}},
			{"an unknown account", lists.ListScope{AccountID: newID()}},
		}
		for _, sc := range scopes {
			for _, statuses := range [][]assessments.Status{active, {assessments.Approved, assessments.Rejected}, nil} {
				what := fmt.Sprintf("%s, statuses %v", sc.name, statuses)
				want := load(f, func(ctx context.Context, tx stores.Tx) (lists.ListCounts, error) {
					return countsByEntries(ctx, tx, sc.scope, statuses)
				})
				equal(t, what, counts(f, sc.scope, statuses), want)
			}
		}
		equal(t, "a list of another account", counts(f, lists.ListScope{AccountID: acme.ID, ListID: &lo.ID}, active), lists.ListCounts{})
	}},
	{"counts follow writes: entries removed, alerts switched, lists deleted", func(t *testing.T, f *fixture) {
		acme := f.org("Acme Org")
		vs := f.vendors("Alpha", "Bravo")
		l1, l2 := f.list(acme.ID, "one"), f.list(acme.ID, "two")
		f.onList(l1.ID, vs...)
		f.onList(l2.ID, vs[0])
		asm := f.newAssessment(l1, vs[1])
		asm.Status = assessments.OnHold
		f.saveAssessments(asm)
		all := lists.ListScope{AccountID: acme.ID}
		equal(t, "before", counts(f, all, assessments.ActiveStatuses()), lists.ListCounts{Vendors: 2, Followed: 2, Assessments: 1})
		f.write(func(ctx context.Context, tx stores.Tx) error {
			return tx.Lists().SetAlerts(ctx, l1.ID, vs[0].ID, false)
		})
		equal(t, "alerts off on one of two lists", counts(f, all, assessments.ActiveStatuses()), lists.ListCounts{Vendors: 2, Followed: 2, Assessments: 1})
		f.write(func(ctx context.Context, tx stores.Tx) error {
			return tx.Lists().SetAlerts(ctx, l2.ID, vs[0].ID, false)
		})
		equal(t, "alerts off on both", counts(f, all, assessments.ActiveStatuses()), lists.ListCounts{Vendors: 2, Followed: 1, Assessments: 1})
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Lists().Delete(ctx, acme.ID, l1.ID) })
		equal(t, "list one deleted", counts(f, all, assessments.ActiveStatuses()), lists.ListCounts{Vendors: 1, Followed: 0, Assessments: 0})
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Lists().SetAlerts(ctx, l2.ID, vs[0].ID, true) })
		f.onList(l2.ID, vs[1])
		equal(t, "alerts on again, a vendor back", counts(f, all, assessments.ActiveStatuses()), lists.ListCounts{Vendors: 2, Followed: 2})
		f.write(func(ctx context.Context, tx stores.Tx) error {
			return tx.Lists().RemoveEntries(ctx, l2.ID, []uuid.UUID{vs[0].ID})
		})
		equal(t, "a vendor taken off its last list", counts(f, all, assessments.ActiveStatuses()), lists.ListCounts{Vendors: 1, Followed: 1})
	}},
	{"counts over many lists, written every way, agree with reading every entry", func(t *testing.T, f *fixture) {
		acme, other := f.org("Acme Org"), f.org("Other Org")
		vs := f.vendors("V0", "V1", "V2", "V3", "V4", "V5", "V6", "V7")
		var made []lists.List
		for i := range 12 {
			acc := acme.ID
			if i%4 == 3 {
				acc = other.ID
			}
			l := f.list(acc, fmt.Sprintf("list %d", i))
			made = append(made, l)
			f.onList(l.ID, vs[i%len(vs)], vs[(i*3+1)%len(vs)], vs[(i*5+2)%len(vs)])
			if i%3 == 0 {
				f.write(func(ctx context.Context, tx stores.Tx) error {
					return tx.Lists().SetAlerts(ctx, l.ID, vs[i%len(vs)].ID, false)
				})
			}
		}
		check := func(what string) {
			t.Helper()
			for _, acc := range []uuid.UUID{acme.ID, other.ID} {
				sc := lists.ListScope{AccountID: acc}
				want := load(f, func(ctx context.Context, tx stores.Tx) (lists.ListCounts, error) {
					return countsByEntries(ctx, tx, sc, nil)
				})
				equal(t, what, counts(f, sc, nil), want)
			}
		}
		check("after the lists were filled")
		f.write(func(ctx context.Context, tx stores.Tx) error {
			return tx.Lists().RemoveEntries(ctx, made[1].ID, []uuid.UUID{vs[1].ID, vs[4].ID, vs[7].ID})
		})
		check("after entries were removed")
		for _, i := range []int{0, 3, 5} {
			f.write(func(ctx context.Context, tx stores.Tx) error {
				return tx.Lists().Delete(ctx, made[i].AccountID, made[i].ID)
			})
		}
		check("after lists were deleted")
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Accounts().Delete(ctx, other.ID) })
		equal(t, "a deleted account", counts(f, lists.ListScope{AccountID: other.ID}, nil), lists.ListCounts{})
		check("after the other account was deleted")
	}},
}
