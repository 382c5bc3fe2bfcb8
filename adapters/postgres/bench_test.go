package postgres_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/review"
	"github.com/vetted-dev/vetted/core/vendorlist"
	"github.com/vetted-dev/vetted/ports"
)

// The bulk calls behind save-vendors and import-csv, 500 rows each, one
// unit of work per op. Target: each under 250 ms (see the closing notes).
//
//	go test -run '^$' -bench . -benchtime 20x ./postgres/

const benchRows = 500

func BenchmarkBulk(b *testing.B) {
	e := newEnv(b)
	org := e.org("Bench Org")
	newList := func() vendorlist.List { return e.list(org.ID, "list "+uuid.NewString()) }
	run := func(b *testing.B, fn func(ctx context.Context, tx ports.Tx) error) {
		b.Helper()
		if err := e.s.InTx(e.ctx, fn); err != nil {
			b.Fatal(err)
		}
	}

	b.Run("Ensure500New", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			vs := e.newVendors(fmt.Sprintf("E%d-%s", i, uuid.NewString()[:6]), benchRows)
			b.StartTimer()
			run(b, func(ctx context.Context, tx ports.Tx) error { _, err := tx.Vendors().Ensure(ctx, vs); return err })
		}
	})

	known := e.ensure(e.newVendors("Known", benchRows)...)
	b.Run("Ensure500Existing", func(b *testing.B) {
		for range b.N {
			run(b, func(ctx context.Context, tx ports.Tx) error { _, err := tx.Vendors().Ensure(ctx, known); return err })
		}
	})

	b.Run("AddEntries500", func(b *testing.B) {
		for range b.N {
			b.StopTimer()
			l := newList()
			b.StartTimer()
			run(b, func(ctx context.Context, tx ports.Tx) error {
				return tx.Lists().AddEntries(ctx, l.ID, vendorIDs(known), e.now)
			})
		}
	})

	// save-vendors of 500 new vendors: directory and list in one unit of work.
	b.Run("SaveVendors500", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			l := newList()
			vs := e.newVendors(fmt.Sprintf("S%d-%s", i, uuid.NewString()[:6]), benchRows)
			b.StartTimer()
			run(b, func(ctx context.Context, tx ports.Tx) error {
				got, err := tx.Vendors().Ensure(ctx, vs)
				if err != nil {
					return err
				}
				return tx.Lists().AddEntries(ctx, l.ID, vendorIDs(got), e.now)
			})
		}
	})

	onList := newList()
	e.onList(onList.ID, known...)
	b.Run("MergeProducts500", func(b *testing.B) {
		for range b.N {
			b.StopTimer()
			name := "Product " + uuid.NewString()
			ps := make([]vendorlist.Product, len(known))
			for j, v := range known {
				ps[j] = e.newProduct(onList.ID, v.ID, name)
			}
			b.StartTimer()
			run(b, func(ctx context.Context, tx ports.Tx) error {
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
			as := make([]review.Assessment, len(known))
			for j, v := range known {
				as[j] = e.newAssessment(l, v)
				as[j].DataCollected = []string{"email", "name"}
			}
			b.StartTimer()
			run(b, func(ctx context.Context, tx ports.Tx) error { return tx.Assessments().Save(ctx, as) })
		}
	})

	// A list read after import: 500 entries with their products.
	b.Run("Entries500", func(b *testing.B) {
		for range b.N {
			run(b, func(ctx context.Context, tx ports.Tx) error {
				es, err := tx.Lists().Entries(ctx, onList.ID)
				if err == nil && len(es) != benchRows {
					err = fmt.Errorf("read %d entries", len(es))
				}
				return err
			})
		}
	})
}
