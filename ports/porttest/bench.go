package porttest

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports/stores"
)

// BulkRows is how many rows each bulk benchmark writes or reads in one op.
const BulkRows = 500

// Bench runs the bulk benchmarks of a store: the set-based calls behind
// save-vendors and import-csv, BulkRows rows each, one unit of work per op,
// on the store that open returns (called once). Every store runs the same
// code, so their figures compare.
func Bench(b *testing.B, open func(tb testing.TB) stores.Store) {
	f := newFixture(b, open(b))
	org := f.org("Bench Org")
	newList := func() lists.List { return f.list(org.ID, "list "+uuid.NewString()) }
	newVendors := func(prefix string) []vendors.Vendor {
		vs := make([]vendors.Vendor, BulkRows)
		for i := range vs {
			vs[i] = f.newVendor(fmt.Sprintf("%s %04d", prefix, i), fmt.Sprintf("https://%s-%d.example.com", prefix, i))
		}
		return vs
	}
	run := func(b *testing.B, fn txFn) {
		b.Helper()
		if err := f.s.InTx(f.ctx, fn); err != nil {
			b.Fatal(err)
		}
	}

	b.Run("Ensure500New", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			vs := newVendors(fmt.Sprintf("E%d-%s", i, uuid.NewString()[:6]))
			b.StartTimer()
			run(b, func(ctx context.Context, tx stores.Tx) error { _, err := tx.Vendors().Ensure(ctx, vs); return err })
		}
	})

	known := f.ensure(newVendors("Known")...)
	b.Run("Ensure500Existing", func(b *testing.B) {
		for range b.N {
			run(b, func(ctx context.Context, tx stores.Tx) error { _, err := tx.Vendors().Ensure(ctx, known); return err })
		}
	})

	b.Run("AddEntries500", func(b *testing.B) {
		for range b.N {
			b.StopTimer()
			l := newList()
			b.StartTimer()
			run(b, func(ctx context.Context, tx stores.Tx) error {
				return tx.Lists().AddEntries(ctx, l.ID, vendorIDs(known), f.now)
			})
		}
	})

	// save-vendors of 500 new vendors: directory and list in one unit of work.
	b.Run("SaveVendors500", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			l := newList()
			vs := newVendors(fmt.Sprintf("S%d-%s", i, uuid.NewString()[:6]))
			b.StartTimer()
			run(b, func(ctx context.Context, tx stores.Tx) error {
				got, err := tx.Vendors().Ensure(ctx, vs)
				if err != nil {
					return err
				}
				return tx.Lists().AddEntries(ctx, l.ID, vendorIDs(got), f.now)
			})
		}
	})

	onList := newList()
	f.onList(onList.ID, known...)
	b.Run("MergeProducts500", func(b *testing.B) {
		for range b.N {
			b.StopTimer()
			name := "Product " + uuid.NewString()
			ps := make([]lists.Product, len(known))
			for j, v := range known {
				ps[j] = f.newProduct(onList.ID, v.ID, name)
			}
			b.StartTimer()
			run(b, func(ctx context.Context, tx stores.Tx) error {
				n, err := tx.Lists().MergeProducts(ctx, ps)
				if err == nil && n != len(ps) {
					err = fmt.Errorf("inserted %d of %d", n, len(ps))
				}
				return err
			})
		}
	})

	b.Run("AssessmentsSave500", func(b *testing.B) {
		for range b.N {
			b.StopTimer()
			l := newList()
			as := make([]assessments.Assessment, len(known))
			for j, v := range known {
				as[j] = f.newAssessment(l, v)
			}
			b.StartTimer()
			run(b, func(ctx context.Context, tx stores.Tx) error { return tx.Assessments().Save(ctx, as) })
		}
	})

	// A list read after import: 500 entries with their products.
	b.Run("Entries500", func(b *testing.B) {
		for range b.N {
			if err := f.s.View(f.ctx, func(ctx context.Context, tx stores.Tx) error {
				es, err := tx.Lists().Entries(ctx, onList.ID)
				if err == nil && len(es) != BulkRows {
					err = fmt.Errorf("read %d entries", len(es))
				}
				return err
			}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
