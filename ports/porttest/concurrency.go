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
	"github.com/vetted-dev/vetted/core/run"
	"github.com/vetted-dev/vetted/ports"
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
		var d ports.Delivery // of the attempt that committed, if the store retries
		err := f.s.InTx(f.ctx, func(ctx context.Context, tx ports.Tx) (err error) {
			d, err = tx.Deliveries().Claim(ctx, key, at, lease)
			return err
		})
		if err == nil && d.State == ports.DeliveryClaimed {
			wins.Add(1)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return int(wins.Load())
}

var concurrencyCases = []testCase{
	{"read-modify-write of a run under GetForUpdate loses no update", func(t *testing.T, f *fixture) {
		r := f.run(0)
		err := parallel(func(i int) error {
			return f.s.InTx(f.ctx, func(ctx context.Context, tx ports.Tx) error {
				cur, err := tx.Runs().GetForUpdate(ctx, r.ID)
				if err != nil {
					return err
				}
				cur.Jobs = append(cur.Jobs, run.Job{ID: newID(), VendorID: newID(), VendorName: fmt.Sprint("Vendor ", i), Status: run.StatusQueued})
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
				return f.s.View(f.ctx, func(ctx context.Context, tx ports.Tx) error {
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
			return f.s.InTx(f.ctx, func(ctx context.Context, tx ports.Tx) error {
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
