package memory_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/adapters/memory"
	"github.com/vetted-dev/vetted/core/account"
	"github.com/vetted-dev/vetted/core/vendor"
	"github.com/vetted-dev/vetted/ports"
	"github.com/vetted-dev/vetted/ports/porttest"
)

func TestConformance(t *testing.T) {
	porttest.Run(t, func(*testing.T) ports.Store { return memory.New() })
}

// TestMisuse covers what the conformance suite leaves to each adapter: how
// the memory store refuses a unit of work used the wrong way.
func TestMisuse(t *testing.T) {
	t.Parallel()
	org, err := account.NewAccount(uuid.New(), "Acme", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	for _, c := range []struct {
		name string
		run  func(s *memory.Store) error
	}{
		{"a write in View is refused", func(s *memory.Store) error {
			return s.View(t.Context(), func(ctx context.Context, tx ports.Tx) error { return tx.Accounts().Create(ctx, org) })
		}},
		{"a unit of work used after it ended is refused", func(s *memory.Store) error {
			var escaped ports.Tx
			if err := s.InTx(t.Context(), func(_ context.Context, tx ports.Tx) error { escaped = tx; return nil }); err != nil {
				t.Fatal(err)
			}
			return escaped.Accounts().Create(t.Context(), org)
		}},
		{"a cancelled context runs nothing", func(s *memory.Store) error {
			return s.InTx(cancelled, func(ctx context.Context, tx ports.Tx) error { return tx.Accounts().Create(ctx, org) })
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := memory.New()
			if err := c.run(s); err == nil {
				t.Fatal("got no error")
			}
			err := s.View(t.Context(), func(ctx context.Context, tx ports.Tx) error {
				_, err := tx.Accounts().Get(ctx, org.ID)
				return err
			})
			if err == nil || errors.Is(err, context.Canceled) {
				t.Fatalf("the refused write left the account behind (err %v)", err)
			}
		})
	}
}

// BenchmarkRollbackOnLargeStore shows that a failed unit of work costs what
// it wrote, not what the store holds.
func BenchmarkRollbackOnLargeStore(b *testing.B) {
	s := memory.New()
	now := time.Now()
	const size = 20000
	vs := make([]vendor.Vendor, size)
	for i := range vs {
		v, err := vendor.New(uuid.New(), fmt.Sprint("Vendor ", i), "", now)
		if err != nil {
			b.Fatal(err)
		}
		vs[i] = v
	}
	if err := s.InTx(b.Context(), func(ctx context.Context, tx ports.Tx) error {
		_, err := tx.Vendors().Ensure(ctx, vs)
		return err
	}); err != nil {
		b.Fatal(err)
	}
	errRollback := errors.New("rollback")
	for b.Loop() {
		err := s.InTx(b.Context(), func(ctx context.Context, tx ports.Tx) error {
			v, _ := vendor.New(uuid.New(), "Fresh", "", now)
			if _, err := tx.Vendors().Ensure(ctx, []vendor.Vendor{v}); err != nil {
				return err
			}
			return errRollback
		})
		if !errors.Is(err, errRollback) {
			b.Fatal(err)
		}
	}
}
