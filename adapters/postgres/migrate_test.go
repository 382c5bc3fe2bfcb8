package postgres_test

import (
	"context"
	"sync"
	"testing"

	"github.com/vetted-dev/vetted/adapters/postgres"
	"github.com/vetted-dev/vetted/adapters/postgres/pgtest"
)

// TestMigrateTwiceConcurrently runs the migrations from several stores at
// once on an empty database, then again: all succeed, and the schema works.
func TestMigrateTwiceConcurrently(t *testing.T) {
	t.Parallel()
	dbURL := pgtest.NewDatabase(t)
	ctx := context.Background()
	const n = 4
	stores := make([]*postgres.Store, n)
	for i := range stores {
		s, err := postgres.Open(ctx, dbURL)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Close() })
		stores[i] = s
	}
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i, s := range stores {
		wg.Go(func() { errs[i] = s.Migrate(ctx) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("migrator %d: %v", i, err)
		}
	}
	if err := stores[0].Migrate(ctx); err != nil {
		t.Errorf("second migrate: %v", err)
	}
	if err := stores[0].Ping(ctx); err != nil {
		t.Errorf("ping: %v", err)
	}
}
