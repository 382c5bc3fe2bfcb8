package postgres

import (
	"context"
	"sync/atomic"

	"github.com/uptrace/bun"
)

// CountStatements makes s count every statement it sends from now on, so
// tests can check that bulk work takes a constant number of round trips.
// Call it before s is used concurrently.
func CountStatements(s *Store) *atomic.Int64 {
	c := new(atomic.Int64)
	s.db = s.db.WithQueryHook(counter{c})
	return c
}

type counter struct{ n *atomic.Int64 }

func (c counter) BeforeQuery(ctx context.Context, _ *bun.QueryEvent) context.Context {
	c.n.Add(1)
	return ctx
}

func (counter) AfterQuery(context.Context, *bun.QueryEvent) {}

// RerunMigration runs one embedded migration file again, as a second
// migrator would; every migration is written to be safe to run twice.
func RerunMigration(ctx context.Context, s *Store, name string) error {
	b, err := migrationFiles.ReadFile("migrations/" + name)
	if err != nil {
		return err
	}
	_, err = s.db.ExecContext(ctx, string(b))
	return err
}
