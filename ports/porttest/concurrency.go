package porttest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/platform/mailonce"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports/stores"
)

// workers is how many concurrent units of work the concurrency cases start.
const workers = 12

// parallel runs fn(i) for i in [0, workers) at once and returns their errors.
func parallel(fn func(i int) error) error {
	var wg sync.WaitGroup
	errs := make([]error, workers)
	for i := range workers {
		wg.Go(func() { errs[i] = fn(i) })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// concurrentClaims claims key at the given time from every worker at once
// and counts the claims that were taken.
func concurrentClaims(t *testing.T, f *fixture, key string, at time.Time) int {
	var wins atomic.Int32
	err := parallel(func(int) error {
		var d mailonce.Delivery // of the attempt that committed, if the store retries
		err := f.s.InTx(f.ctx, func(ctx context.Context, tx stores.Tx) (err error) {
			d, err = tx.Deliveries().Claim(ctx, key, at, lease)
			return err
		})
		if err == nil && d.State == mailonce.DeliveryClaimed {
			wins.Add(1)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return int(wins.Load())
}

// upsertUseCase is the unit of work of an assessment upsert as the core
// runs it: the vendor put on the list, its entry locked, the assessment
// read, changed and saved, and the change audited against what was read.
func upsertUseCase(ctx context.Context, tx stores.Tx, l lists.List, v vendors.Vendor, useCase string, now time.Time) error {
	ids := []uuid.UUID{v.ID}
	if err := tx.Lists().AddEntries(ctx, l.ID, ids, now); err != nil {
		return err
	}
	if err := tx.Lists().LockEntries(ctx, l.ID, ids); err != nil {
		return err
	}
	before, err := tx.Assessments().ListByVendors(ctx, l.ID, ids)
	if err != nil {
		return err
	}
	cur := assessments.Assessment{ID: newID(), AccountID: l.AccountID, ListID: l.ID, VendorID: v.ID, VendorName: v.Name.String(),
		Fields: assessments.Fields{Status: assessments.NotStarted, DataCollected: []string{}}, CreatedAt: now, CreatedBy: "ann@example.com"}
	if len(before) == 1 {
		cur = before[0]
	}
	old := cur.UseCase
	cur.UseCase, cur.UpdatedAt, cur.UpdatedBy = useCase, now, "ann@example.com"
	if err := tx.Assessments().Save(ctx, []assessments.Assessment{cur}); err != nil {
		return err
	}
	return tx.Assessments().AppendEvents(ctx, []assessments.AuditEvent{{ID: newID(), AssessmentID: cur.ID, AccountID: l.AccountID,
		CreatedAt: now, SubmittedBy: "ann@example.com", Changes: []assessments.Change{{Field: "use_case", OldValue: old, NewValue: useCase}}}})
}

var concurrencyCases = []testCase{
	{"concurrent upserts of one assessment under LockEntries all succeed, one row, a chained audit log", func(t *testing.T, f *fixture) {
		a := f.org("Acme Org")
		l := f.list(a.ID, "audit")
		v := f.vendors("Vendor")[0]
		now := f.tick()
		err := parallel(func(i int) error {
			return f.s.InTx(f.ctx, func(ctx context.Context, tx stores.Tx) error {
				return upsertUseCase(ctx, tx, l, v, fmt.Sprint("use ", i), now)
			})
		})
		if err != nil {
			t.Fatalf("an upsert failed: %v", err)
		}
		as := find(f, assessments.AssessmentFilter{AccountID: a.ID, ListID: &l.ID})
		equal(t, "assessments", len(as), 1)
		es, total := events(f, as[0].ID, 0, 0)
		equal(t, "audit events", total, workers)
		// Each upsert read what the one before it saved: the events chain
		// from the empty use case through every worker's once, ending at
		// the stored one.
		next := map[string]string{}
		for _, e := range es {
			c := e.Changes[0]
			if _, dup := next[c.OldValue]; dup {
				t.Fatalf("two upserts changed the use case from %q: one did not see the other", c.OldValue)
			}
			next[c.OldValue] = c.NewValue
		}
		cur, seen := "", 0
		for ; seen < workers; seen++ {
			n, ok := next[cur]
			if !ok {
				break
			}
			cur = n
		}
		equal(t, "events in the chain", seen, workers)
		equal(t, "stored use case", as[0].UseCase, cur)
	}},
	{"read-modify-write of a run under GetForUpdate loses no update", func(t *testing.T, f *fixture) {
		r := f.run(0)
		err := parallel(func(i int) error {
			return f.s.InTx(f.ctx, func(ctx context.Context, tx stores.Tx) error {
				cur, err := tx.Runs().GetForUpdate(ctx, r.ID)
				if err != nil {
					return err
				}
				cur.Jobs = append(cur.Jobs, vendors.RunJob{ID: newID(), VendorID: newID(), VendorName: fmt.Sprint("Vendor ", i), Status: vendors.RunQueued})
				return tx.Runs().Save(ctx, cur)
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		got, err := getRun(f, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		equal(t, "jobs", len(got.Jobs), workers)
	}},
	{"concurrent claims of one delivery key succeed once", func(t *testing.T, f *fixture) {
		equal(t, "successful claims", concurrentClaims(t, f, "alert:1:ann", f.now), 1)
	}},
	{"concurrent take-overs of an expired claim succeed once", func(t *testing.T, f *fixture) {
		first := claimDelivery(f, "alert:1:ann")
		equal(t, "successful take-overs", concurrentClaims(t, f, "alert:1:ann", first.ClaimedAt.Add(lease)), 1)
	}},
	{"concurrent writers and readers see consistent counts", func(t *testing.T, f *fixture) {
		a := f.org("Acme Org")
		l := f.list(a.ID, "audit")
		vs := make([]uuid.UUID, workers)
		for i := range vs {
			vs[i] = f.vendors(fmt.Sprint("Vendor ", i))[0].ID
		}
		now := f.tick()
		err := parallel(func(i int) error {
			if i%2 == 1 {
				// A reader: every writer adds two vendors in one unit of
				// work, so no read may see an odd number of them.
				return f.s.View(f.ctx, func(ctx context.Context, tx stores.Tx) error {
					got, err := tx.Lists().Get(ctx, a.ID, l.ID)
					if err != nil {
						return err
					}
					es, err := tx.Lists().Entries(ctx, l.ID)
					if err != nil {
						return err
					}
					if got.VendorCount%2 != 0 || len(es)%2 != 0 {
						return fmt.Errorf("saw half a unit of work: vendor count %d, entries %d", got.VendorCount, len(es))
					}
					return nil
				})
			}
			return f.s.InTx(f.ctx, func(ctx context.Context, tx stores.Tx) error {
				return tx.Lists().AddEntries(ctx, l.ID, vs[i:i+2], now)
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		got, err := getList(f, a.ID, l.ID)
		if err != nil {
			t.Fatal(err)
		}
		equal(t, "vendor count", got.VendorCount, workers)
	}},
}
