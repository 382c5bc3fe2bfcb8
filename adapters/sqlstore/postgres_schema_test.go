package sqlstore_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/vetted-dev/vetted/adapters/sqlstore"
	"github.com/vetted-dev/vetted/adapters/sqlstore/pgtest"
)

// TestCheckSchema is what /readyz asks on PostgreSQL: a database the
// migrate Job has not brought to this binary's schema is behind; one that
// also holds a newer release's migrations is not.
func TestCheckSchema(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := sqlstore.OpenPostgres(ctx, pgtest.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	if err := s.CheckSchema(ctx); !errors.Is(err, sqlstore.ErrSchemaBehind) {
		t.Fatalf("empty database: %v, want ErrSchemaBehind", err)
	}
	if err := s.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.CheckSchema(ctx); err != nil {
		t.Fatalf("migrated database: %v", err)
	}
	db := s.SQLDB()
	if _, err := db.ExecContext(ctx, "INSERT INTO vetted_migrations (name, group_id, migrated_at) VALUES ('29990101000000_from_the_future', 99, now())"); err != nil {
		t.Fatal(err)
	}
	if err := s.CheckSchema(ctx); err != nil {
		t.Fatalf("a newer release's migration applied too: %v", err)
	}
	var last string
	if err := db.QueryRowContext(ctx, "SELECT name FROM vetted_migrations WHERE name < '2999' ORDER BY name DESC LIMIT 1").Scan(&last); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, "DELETE FROM vetted_migrations WHERE name = $1", last); err != nil {
		t.Fatal(err)
	}
	err = s.CheckSchema(ctx)
	if !errors.Is(err, sqlstore.ErrSchemaBehind) || !strings.Contains(err.Error(), last) {
		t.Fatalf("one migration missing: %v, want ErrSchemaBehind naming %s", err, last)
	}
}
