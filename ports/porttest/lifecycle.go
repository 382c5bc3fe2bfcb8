package porttest

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/ports/stores"
)

// lifecycleCases check what the review lifecycle (issue 22) keeps.
var lifecycleCases = []testCase{
	{"Timings are the timing of each assessment Find returns, in every scope", func(t *testing.T, f *fixture) {
		a, other := f.org("Acme Org"), f.org("Other Org")
		l1, l2, lo := f.list(a.ID, lists.MasterList), f.list(a.ID, "two"), f.list(other.ID, lists.MasterList)
		vs := f.vendors("Acme", "Beta", "Gamma", "Delta")
		var saved []assessments.Assessment
		for i, p := range []struct {
			list lists.List
			v    int
		}{{l1, 0}, {l1, 1}, {l1, 2}, {l2, 0}, {l2, 3}, {lo, 1}} {
			asmt := f.newAssessment(p.list, vs[p.v])
			asmt.Tier = []assessments.Tier{assessments.Critical, assessments.High, assessments.Untiered, assessments.Low}[i%4]
			if i%2 == 0 {
				asmt.LastReviewedAt = f.tick().Add(-time.Duration(i) * 24 * time.Hour)
			}
			if i == 1 {
				asmt.Status, asmt.ConditionalApprovalCondition = assessments.ConditionalApproval, "SOC 2 by June"
				asmt.ConditionDueAt = time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
			}
			saved = append(saved, asmt)
		}
		f.saveAssessments(saved...)
		for _, filter := range []assessments.AssessmentFilter{{AccountID: a.ID}, {AccountID: a.ID, ListID: &l1.ID}, {AccountID: a.ID, ListID: &lo.ID},
			{AccountID: other.ID}, {AccountID: uuid.New()}} {
			found := load(f, func(ctx context.Context, tx stores.Tx) ([]assessments.Assessment, error) {
				return tx.Assessments().Find(ctx, filter)
			})
			got := load(f, func(ctx context.Context, tx stores.Tx) ([]assessments.Timing, error) {
				return tx.Assessments().Timings(ctx, filter)
			})
			if len(got) != len(found) {
				t.Fatalf("%+v: %d timings for %d assessments", filter, len(got), len(found))
			}
			for _, asmt := range found {
				want := assessments.TimingOf(asmt)
				if !slices.ContainsFunc(got, func(g assessments.Timing) bool {
					return g.Tier == want.Tier && g.Status == want.Status && g.ConditionDueAt.Equal(want.ConditionDueAt) &&
						g.LastReviewedAt.Equal(want.LastReviewedAt) && g.ConditionDueAt.Location() == time.UTC && g.LastReviewedAt.Location() == time.UTC
				}) {
					t.Fatalf("%+v: no timing %+v among %+v", filter, want, got)
				}
			}
		}
	}},
	{"Save keeps tier, condition due date and last review, and clears them", func(t *testing.T, f *fixture) {
		a := f.org("Acme Org")
		l := f.list(a.ID, lists.MasterList)
		vs := f.vendors("Acme", "Beta")
		asmt := f.newAssessment(l, vs[0])
		asmt.Status, asmt.ConditionalApprovalCondition = assessments.ConditionalApproval, "SOC 2 by June"
		asmt.Tier = assessments.Critical
		asmt.ConditionDueAt = time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
		asmt.LastReviewedAt = f.tick()
		plain := f.assessment(l, vs[1])
		f.saveAssessments(asmt)
		got, err := getAssessment(f, a.ID, asmt.ID)
		if err != nil {
			t.Fatal(err)
		}
		equal(t, "tier", got.Tier, assessments.Critical)
		sameTime(t, "condition_due_at", got.ConditionDueAt, asmt.ConditionDueAt)
		sameTime(t, "last_reviewed_at", got.LastReviewedAt, asmt.LastReviewedAt)
		equal(t, "condition_due_at in UTC", got.ConditionDueAt.Location(), time.UTC)
		untouched, err := getAssessment(f, a.ID, plain.ID)
		if err != nil {
			t.Fatal(err)
		}
		equal(t, "tier not set", untouched.Tier, assessments.Untiered)
		equal(t, "condition_due_at not set", untouched.ConditionDueAt.IsZero(), true)
		equal(t, "never reviewed", untouched.LastReviewedAt.IsZero(), true)

		asmt.Tier, asmt.ConditionDueAt, asmt.LastReviewedAt = assessments.Low, time.Time{}, time.Time{}
		asmt.Status = assessments.InProgress
		asmt.UpdatedAt = f.tick()
		f.saveAssessments(asmt)
		found := find(f, assessments.AssessmentFilter{AccountID: a.ID, ID: &asmt.ID})
		if len(found) != 1 {
			t.Fatalf("Find by id: %d assessments", len(found))
		}
		equal(t, "tier changed", found[0].Tier, assessments.Low)
		equal(t, "condition_due_at cleared", found[0].ConditionDueAt.IsZero(), true)
		equal(t, "last_reviewed_at cleared", found[0].LastReviewedAt.IsZero(), true)
	}},
	{"ReviewPolicies: Get absent is not found; Put stores, replaces, and goes with the account", func(t *testing.T, f *fixture) {
		a, other := f.org("Acme Org"), f.org("Beta Org")
		get := func(id uuid.UUID) (assessments.Policy, error) {
			return loadErr(f, func(ctx context.Context, tx stores.Tx) (assessments.Policy, error) {
				return tx.ReviewPolicies().Get(ctx, id)
			})
		}
		putPolicy := func(id uuid.UUID, p assessments.Policy) {
			f.write(func(ctx context.Context, tx stores.Tx) error { return tx.ReviewPolicies().Put(ctx, id, p) })
		}
		_, err := get(a.ID)
		wantErr(t, "Get before Put", err, core.ErrNotFound)
		p := assessments.Policy{Cadence: assessments.Cadence{Critical: 3, High: 6, Medium: 12, Low: 24, NotTiered: 9},
			ReminderOffsets: []int{60, 14, 1}, RepeatOverdue: true, UpdatedAt: f.tick(), UpdatedBy: "ann@example.com"}
		putPolicy(a.ID, p)
		got, err := get(a.ID)
		if err != nil {
			t.Fatal(err)
		}
		equal(t, "cadence", got.Cadence, p.Cadence)
		sameInts(t, "offsets", got.ReminderOffsets, p.ReminderOffsets)
		equal(t, "repeat overdue", got.RepeatOverdue, true)
		equal(t, "updated by", got.UpdatedBy, "ann@example.com")
		sameTime(t, "updated at", got.UpdatedAt, p.UpdatedAt)
		_, err = get(other.ID)
		wantErr(t, "another account's", err, core.ErrNotFound)

		p.Cadence.Critical, p.ReminderOffsets, p.RepeatOverdue, p.UpdatedAt = 1, []int{}, false, f.tick()
		putPolicy(a.ID, p)
		got, _ = get(a.ID)
		equal(t, "replaced cadence", got.Cadence.Critical, 1)
		equal(t, "no offsets", len(got.ReminderOffsets), 0)
		equal(t, "offsets not nil", got.ReminderOffsets != nil, true)
		equal(t, "replaced repeat", got.RepeatOverdue, false)

		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Accounts().Delete(ctx, a.ID) })
		_, err = get(a.ID)
		wantErr(t, "Get after the account is deleted", err, core.ErrNotFound)
	}},
	{"EntriesAfter pages a list in the order of Entries, each entry once, under concurrent writes", func(t *testing.T, f *fixture) {
		a := f.org("Acme Org")
		l, other := f.list(a.ID, lists.MasterList), f.list(a.ID, "other")
		vs := f.vendors("Acme", "beta", "Cobalt", "Delta", "Echo", "Foxtrot")
		f.onList(l.ID, vs[:5]...)
		f.onList(other.ID, vs[5])
		f.product(l.ID, vs[1].ID, "Beta Mail")
		whole := load(f, func(ctx context.Context, tx stores.Tx) ([]lists.Entry, error) {
			return tx.Lists().Entries(ctx, l.ID)
		})
		page := func(after lists.EntryKey, limit int) []lists.Entry {
			return load(f, func(ctx context.Context, tx stores.Tx) ([]lists.Entry, error) {
				return tx.Lists().EntriesAfter(ctx, l.ID, after, limit)
			})
		}
		key := func(e lists.Entry) lists.EntryKey {
			return lists.EntryKey{VendorName: e.VendorName, VendorID: e.VendorID}
		}
		var walked []lists.Entry
		for after := (lists.EntryKey{}); ; {
			p := page(after, 2)
			walked = append(walked, p...)
			if len(p) < 2 {
				break
			}
			after = key(p[len(p)-1])
		}
		entryIDs := func(es []lists.Entry) []uuid.UUID {
			return idsOf(es, func(e lists.Entry) uuid.UUID { return e.VendorID })
		}
		sameIDs(t, "walk in pages", entryIDs(walked), entryIDs(whole))
		for _, e := range walked {
			if e.VendorID == vs[1].ID && (len(e.Products) != 1 || e.Products[0].Name != "Beta Mail") {
				t.Fatalf("products of a paged entry: %+v", e.Products)
			}
		}
		// Writes between two pages: the walk sees every entry present
		// throughout exactly once, never one taken off before it was reached.
		first := page(lists.EntryKey{}, 2)
		f.write(func(ctx context.Context, tx stores.Tx) error {
			return tx.Lists().RemoveEntries(ctx, l.ID, []uuid.UUID{first[0].VendorID, whole[3].VendorID})
		})
		f.onList(l.ID, vs[5])
		rest := page(key(first[1]), 10)
		got := append(entryIDs(first), entryIDs(rest)...)
		seen := map[uuid.UUID]int{}
		for _, id := range got {
			seen[id]++
		}
		for _, e := range whole {
			if e.VendorID == whole[3].VendorID {
				if seen[e.VendorID] != 0 {
					t.Fatalf("an entry removed before it was reached was read")
				}
				continue
			}
			if seen[e.VendorID] != 1 {
				t.Fatalf("entry %s seen %d times in %v", e.VendorName, seen[e.VendorID], got)
			}
		}
		equal(t, "the entry added during the walk", seen[vs[5].ID], 1)
	}},
	{"CalendarKeys: one per member, found by member and by id, deleted, and gone with the account", func(t *testing.T, f *fixture) {
		a, other := f.org("Acme Org"), f.org("Beta Org")
		u := f.user("ann@example.com")
		k := assessments.CalendarKey{ID: newID(), AccountID: a.ID, UserID: u.ID, CreatedAt: f.tick()}
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.CalendarKeys().Create(ctx, k) })
		got := load(f, func(ctx context.Context, tx stores.Tx) (assessments.CalendarKey, error) {
			return tx.CalendarKeys().Get(ctx, a.ID, u.ID)
		})
		equal(t, "id", got.ID, k.ID)
		sameTime(t, "created_at", got.CreatedAt, k.CreatedAt)
		byID := load(f, func(ctx context.Context, tx stores.Tx) (assessments.CalendarKey, error) {
			return tx.CalendarKeys().GetByID(ctx, k.ID)
		})
		equal(t, "account", byID.AccountID, a.ID)
		equal(t, "user", byID.UserID, u.ID)
		err := f.try(func(ctx context.Context, tx stores.Tx) error {
			return tx.CalendarKeys().Create(ctx, assessments.CalendarKey{ID: newID(), AccountID: a.ID, UserID: u.ID, CreatedAt: f.tick()})
		})
		wantErr(t, "a second key of the member", err, core.ErrConflict)
		_, err = loadErr(f, func(ctx context.Context, tx stores.Tx) (assessments.CalendarKey, error) {
			return tx.CalendarKeys().Get(ctx, other.ID, u.ID)
		})
		wantErr(t, "key in another account", err, core.ErrNotFound)
		otherKey := assessments.CalendarKey{ID: newID(), AccountID: other.ID, UserID: u.ID, CreatedAt: f.tick()}
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.CalendarKeys().Create(ctx, otherKey) })
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.CalendarKeys().Delete(ctx, a.ID, u.ID) })
		_, err = loadErr(f, func(ctx context.Context, tx stores.Tx) (assessments.CalendarKey, error) {
			return tx.CalendarKeys().GetByID(ctx, k.ID)
		})
		wantErr(t, "GetByID after Delete", err, core.ErrNotFound)
		err = f.try(func(ctx context.Context, tx stores.Tx) error { return tx.CalendarKeys().Delete(ctx, a.ID, u.ID) })
		wantErr(t, "Delete again", err, core.ErrNotFound)
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Accounts().Delete(ctx, other.ID) })
		_, err = loadErr(f, func(ctx context.Context, tx stores.Tx) (assessments.CalendarKey, error) {
			return tx.CalendarKeys().GetByID(ctx, otherKey.ID)
		})
		wantErr(t, "key of a deleted account", err, core.ErrNotFound)
	}},
}

func sameInts(t *testing.T, what string, got, want []int) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: got %v, want %v", what, got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%s: got %v, want %v", what, got, want)
		}
	}
}
