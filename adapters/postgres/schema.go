package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/vetted-dev/vetted/adapters/internal/bunrepo"
)

// ErrSchemaBehind means the database lacks migrations this binary needs:
// `vetted migrate` (the Kubernetes Job) has not run for this release yet.
var ErrSchemaBehind = errors.New("postgres: schema older than this binary's")

// CheckSchema reports whether every migration embedded in this binary has
// been applied (ErrSchemaBehind, naming the first one missing, when not).
// Migrations the binary does not know are fine: a newer release's Job may
// run while older replicas still serve, and migrations only add.
func (s *Store) CheckSchema(ctx context.Context) error {
	m, err := bunrepo.Migrator(s.db, migrationFiles, "migrations")
	if err != nil {
		return err
	}
	all, err := m.MigrationsWithStatus(ctx)
	if err != nil {
		if unavailable(err) {
			return errUnavailable(err)
		}
		// Most often the table is missing: nothing was ever applied.
		return fmt.Errorf("%w: cannot read the applied migrations (%v): run vetted migrate", ErrSchemaBehind, err)
	}
	var missing []string
	for _, mig := range all.Unapplied() {
		missing = append(missing, mig.Name)
	}
	if len(missing) > 0 {
		return fmt.Errorf("%w: %d of %d migrations not applied, the first %s: run vetted migrate", ErrSchemaBehind, len(missing), len(all), missing[0])
	}
	return nil
}
