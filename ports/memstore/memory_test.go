package memstore_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports/memstore"
	"github.com/vetted-dev/vetted/ports/porttest"
	"github.com/vetted-dev/vetted/ports/stores"
)

func TestConformance(t *testing.T) {
	porttest.Run(t, func(*testing.T) stores.Store { return memstore.New() })
}

// BenchmarkRollbackOnLargeStore shows that a failed unit of work costs what
// it wrote, not what the store holds.
func BenchmarkRollbackOnLargeStore(b *testing.B) {
	s := memstore.New()
	now := time.Now()
	const size = 20000
	vs := make([]vendors.Vendor, size)
	for i := range vs {
		v, err := vendors.New(uuid.New(), fmt.Sprint("Vendor ", i), "", now)
		if err != nil {
			b.Fatal(err)
		}
		vs[i] = v
	}
	if err := s.InTx(b.Context(), func(ctx context.Context, tx stores.Tx) error {
		_, err := tx.Vendors().Ensure(ctx, vs)
		return err
	}); err != nil {
		b.Fatal(err)
	}
	errRollback := errors.New("rollback")
	for b.Loop() {
		err := s.InTx(b.Context(), func(ctx context.Context, tx stores.Tx) error {
			v, _ := vendors.New(uuid.New(), "Fresh", "", now)
			if _, err := tx.Vendors().Ensure(ctx, []vendors.Vendor{v}); err != nil {
				return err
			}
			return errRollback
		})
		if !errors.Is(err, errRollback) {
			b.Fatal(err)
		}
	}
}
